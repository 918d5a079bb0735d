"""The words and marks the importer reads in every language: part headings, penalty lines, example labels,
commentary markers, and which language a line is in.

Part headings by language: Definition / 定义 / 定義, Examples / 范例 / 例, Philosophy / 原则 / 理念, Additional
Remedy / 进一步的修正 / 追加措置, Upgrade / 升级 / 格上げ, Penalty / 处罚 / 懲罰; some stand inline before the text
("升级:如果…", "格上げ: 変異…"). An example's label ("A.", "(A)", "（Ａ）", "例(C)", "1.") is its key, not text; a
paragraph opening "例(C)は" is about example C. 【解説】 and ※ mark commentary.
"""

import functools
import re
import unicodedata

from ipgsite.ipg import languages
from ipgsite.ipg.models import Part
from ipgsite.ipg.text import (
    CJK_BMP,
    CJK_COMPATIBILITY_FORMS,
    CJK_LETTER,
    CJK_LETTERS,
    FULLWIDTH_FORMS,
    HALFWIDTH_KATAKANA,
    HAN_COMPATIBILITY,
    HAN_SUPPLEMENTARY,
    HANGUL,
    HIRAGANA,
    KATAKANA,
)

SOURCE = languages.SOURCE

HEADINGS = {
    Part.DEFINITION: ("definition", "定义", "定義"),
    Part.EXAMPLE: ("examples", "example", "范例", "例"),
    Part.PHILOSOPHY: ("philosophy", "原则", "理念"),
    Part.ADDITIONAL_REMEDY: ("additional remedy", "进一步的修正", "追加措置"),
    Part.UPGRADE: ("upgrade", "升级", "格上げ"),
    Part.DOWNGRADE: ("downgrade", "降级", "格下げ"),
}
PART_ORDER = [Part.DEFINITION, Part.EXAMPLE, Part.PHILOSOPHY, Part.ADDITIONAL_REMEDY, Part.UPGRADE, Part.DOWNGRADE]
PENALTY_WORDS = sorted(
    (
        "penalty",
        "处罚",
        "懲罰",
        "no penalty",
        "なし",
        "warning",
        "警告",
        "game loss",
        "一盘负",
        "ゲームの敗北",
        "match loss",
        "マッチの敗北",
        "disqualification",
        "失格",
    ),
    key=len,
    reverse=True,
)
BULLET = re.compile(r"^\s*[•·*\-–‐‣◦▪■●○]\s*")
BOX_START = re.compile(r"^\s*\[?alert\]?", re.IGNORECASE)
BOX_END = "[/alert]"
# Read on the NFKC form of a line: "（Ａ）" is "(A)". A digit is a list number; under Examples it is the example's
# place. "例(C)" labels example C's text; "例(C)は、…" is a paragraph about it.
LABEL = re.compile(
    r"^\s*(?:[•·*\-–]\s*)?(?:例\s*)?(?:\(([A-Z]|\d{1,2})\)(?![はがのをにでもと、,])\s*|([A-Z]|\d{1,2})[.)．](?=\s))\s*"
)
# A section heading's shape (read on the NFKC form): "2.3 …", "IPG 2.3 …", "2.3. …", "Appendix A …".
SECTION_TITLE = re.compile(
    r"^\s*(?:IPG\s*)?(?:(\d{1,2}\.\d{1,2})\.?|(?:Appendix|附录|附錄|付録)\s*([A-Z])\b\.?)(?=\s|$|[^\d.])\s*(.*)$",
    re.IGNORECASE,
)
EXAMPLE_OPENING = re.compile(r"^例\s*\(([A-Z])\)")  # read on the NFKC form: 例（Ｃ） is 例(C)
MARKERS = re.compile(r"^\s*(?:【(?:解説|注釈|注|コメント|補足)】|〔(?:解説|注)〕|※|\[(?:解説|注)\])\s*")
CJK = CJK_LETTER
KANA = re.compile(f"[{HIRAGANA}{KATAKANA}{HALFWIDTH_KATAKANA}]")  # letters only, not ー or ・
LATIN = re.compile(r"[A-Za-z]")
WIDE = re.compile(  # what a monospaced paste draws two columns wide
    f"[{CJK_BMP}{HANGUL}{HAN_COMPATIBILITY}{CJK_COMPATIBILITY_FORMS}{FULLWIDTH_FORMS}{HAN_SUPPLEMENTARY}]"
)
SENTENCE_END = re.compile(r"[.!?。！？:：]$")
CLOSERS = "\"'”’」』）)]】〕"


def heading(line):
    """The part a heading line names ("DEFINITION 定义", "Philosophy", "理念", "定義:"), or None."""
    rest = unicodedata.normalize("NFKC", line).strip().rstrip(":").strip().lower()
    if not rest or len(rest) > 40:
        return None
    for part, words in HEADINGS.items():
        english, others = words[0], words[1:]
        if rest == english or rest in others:
            return part
        if rest.startswith(english) and rest[len(english) :].strip() in others:
            return part
    return None


INLINE_HEADINGS = [
    (part, re.compile(rf"^{re.escape(word)}\s*[:：]\s*(?=\S)", re.IGNORECASE))
    for part, words in HEADINGS.items()
    for word in words
]


def inline_heading(text):
    """ "升级:如果…" → (upgrade, "如果…"); text without one → (None, text)."""
    if not re.match(r"^[^:：]{1,20}[:：]", text):
        return None, text
    for part, pattern in INLINE_HEADINGS:
        match = pattern.match(text)
        if match:
            return part, text[match.end() :]
    return None, text


def is_penalty_line(line):
    rest = unicodedata.normalize("NFKC", line).strip().lower()
    if not rest or len(rest) > 60:
        return False
    for word in PENALTY_WORDS:
        rest = rest.replace(word, " ")
    return not rest.strip(" –—‒―─-:【】")


def label_of(line):
    """(label, rest) of a line that opens on an example's label ("A. …", "（Ａ）…", "例(C) …", "1. …"): the label
    as a capital letter or a number; ("", line) without one."""
    head = unicodedata.normalize("NFKC", line[:12])
    match = LABEL.match(head)
    if not match:
        return "", line
    # NFKC keeps the length of what a label is made of, but for a few characters: find the rest by counting.
    consumed = len(match.group(0))
    taken = 0
    for index, character in enumerate(line):
        if taken >= consumed:
            return (match.group(1) or match.group(2)), line[index:].strip()
        taken += len(unicodedata.normalize("NFKC", character))
    return (match.group(1) or match.group(2)), ""


def example_letter(label):
    """An example's key letter from its label: "C" → "c", "3" → "c" (the third example)."""
    if label.isdigit():
        number = int(label)
        return chr(ord("a") + number - 1) if 1 <= number <= 26 else ""
    return label.lower()


def marker_of(line):
    """(True, rest) for a line opening on a commentary marker (【解説】, ※); (False, line) otherwise."""
    match = MARKERS.match(line)
    return (True, line[match.end() :]) if match else (False, line)


def cjk_language_of(text):
    """Japanese where kana make up a noticeable share of the Chinese characters, else Chinese."""
    cjk = len(CJK.findall(text))
    return "ja" if cjk and len(KANA.findall(text)) * 20 >= cjk else "zh-hans"


def language_of(line, cjk_language):
    cjk = len(CJK.findall(line))
    if cjk and cjk * 2 >= len(LATIN.findall(line)):
        return cjk_language
    return SOURCE


def is_cjk(text):
    return language_of(text, "cjk") == "cjk"


def ends_sentence(text):
    return bool(SENTENCE_END.search(text.rstrip().rstrip(CLOSERS)))


def join(code, first, second):
    return f"{first}{'' if code in languages.CJK else ' '}{second}"


def display_width(text):
    """The columns a line takes in a monospaced paste: two for a wide (CJK) character."""
    return len(text) + len(WIDE.findall(text))


def squeezed(text):
    """Text as compared for "the same": NFKC (width aside), no whitespace."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text or ""))


# Characters a PDF's fonts give for one another: one glyph drawn for several dashes, or for several middle dots.
CONFUSABLE = str.maketrans(dict.fromkeys("‐‑‒–—―─━−", "-") | dict.fromkeys("‧･·•", "・"))
CJK_OR_PUNCTUATION = f"[{CJK_LETTERS}、。，：；（）「」]"
SPACE_BY_CJK = re.compile(f"\\s+(?={CJK_OR_PUNCTUATION})|(?<={CJK_OR_PUNCTUATION})\\s+")


@functools.lru_cache(maxsize=65536)
def glyph_key(text):
    """Text as a PDF's glyphs give it: width aside, dashes one dash, middle dots one dot, no space beside CJK.
    Two texts with one key differ only in what a PDF cannot tell apart."""
    text = unicodedata.normalize("NFKC", text or "").translate(CONFUSABLE)
    return re.sub(r"\s+", " ", SPACE_BY_CJK.sub("", text)).strip()
