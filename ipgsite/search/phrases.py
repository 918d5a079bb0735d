"""A CJK phrase the text does not hold as typed (先手抓牌, 手札が多すぎる), split into parts without a dictionary.

Chinese and Japanese write no spaces between words, so a judge's phrase is rarely a substring of the text: the text
says 先手的牌手…抓了牌 where the judge typed 先手抓牌. The phrase is read from left to right; at each place the part
is, in this order:
- the longest name or variant of the termbase (`ipgsite.terms`) that starts there (手札, 抓, 闇の腹心);
- a run of kana of one kind: katakana is a word (カード); hiragana is grammar (が, すぎる), and not searched for;
- two Han characters that the index holds next to each other somewhere (先手), else one (牌). A few one-character
  particles (的, 了) are grammar too.
Each part is then a term of its own: the entries must hold every part, and those holding them closest together
rank first (search/ranking.py).
"""

import re

from ipgsite.ipg import text as cjk
from ipgsite.ipg.text import CJK_LETTER

HIRAGANA = re.compile(f"[{cjk.HIRAGANA}{cjk.KANA_SOUND_MARKS}{cjk.HIRAGANA_MARKS}]")
KATAKANA = re.compile(f"[{cjk.KATAKANA}{cjk.KATAKANA_MIDDLE_DOT}{cjk.KATAKANA_MARKS}{cjk.KATAKANA_SMALL}]")
HAN = re.compile(f"[{cjk.ITERATION_MARK}{cjk.HAN}]")
GRAMMAR = frozenset("的了在是和与之")


def script(char):
    if HIRAGANA.match(char):
        return "hiragana"
    if KATAKANA.match(char):
        return "katakana"
    return "han" if HAN.match(char) else "other"


def is_phrase(text):
    """Whether a term is CJK text long enough to hold more than one word (多抓: 多, 抓)."""
    return len(text) >= 2 and CJK_LETTER.search(text) is not None and " " not in text


def pairs(text):
    """Every two Han characters next to each other in `text`."""
    return [text[at : at + 2] for at in range(len(text) - 1) if script(text[at]) == script(text[at + 1]) == "han"]


def parts(text, names, held, limit=None):
    """The parts of `text` to search for, in order, each once: `names` is the termbase's folded names and variants;
    `held` the pairs of characters (of `pairs(text)`) that the index holds. With a `limit`, the first `limit` parts:
    the rest of the text is not read."""
    longest = max(map(len, names), default=0)
    found, at = {}, 0

    def name_at(start):
        for end in range(min(len(text), start + longest), start, -1):
            if text[start:end] in names:
                return text[start:end]
        return None

    while at < len(text) and (limit is None or len(found) < limit):
        name = name_at(at)
        if name:
            found[name] = None
            at += len(name)
            continue
        kind = script(text[at])
        if kind == "han":
            pair = text[at : at + 2]
            end = at + 2 if pair in held else at + 1
            if text[at:end] not in GRAMMAR:
                found[text[at:end]] = None
            at = end
            continue
        end = at + 1
        while end < len(text) and script(text[end]) == kind and name_at(end) is None:
            end += 1
        if kind != "hiragana" and any(char.isalnum() for char in text[at:end]):
            found[text[at:end]] = None
        at = end
    return list(found)
