"""Text as search compares it: folded (NFKC, casefold; "Ｄａｒｋ" finds "Dark"), and its words' English stems."""

import re
import unicodedata
from functools import lru_cache

import snowballstemmer

from ipgsite.ipg.text import CJK_LETTER, HALFWIDTH_SOUND_MARKS

DROPPED = {"Cc", "Cf", "Cs", "Co", "Cn"}  # control, format, surrogate, private and unassigned: never part of a word
JOINING = set(HALFWIDTH_SOUND_MARKS)  # NFKC joins them to the character before
WORD = re.compile(r"[^\W_]+")
WORDS_ONLY = re.compile(r"[^\W_]+(?:[\s\-'’./]+[^\W_]+)*")  # words joined by spaces, hyphens, apostrophes
_english = snowballstemmer.stemmer("english")  # Porter2, as PostgreSQL's `english` configuration


def _visible(text):
    """Each space as " ", less the DROPPED characters."""
    return "".join(" " if c.isspace() else c for c in text if c.isspace() or unicodedata.category(c) not in DROPPED)


def _fold_cluster(cluster):
    return _visible(unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", cluster).casefold()))


@lru_cache(maxsize=100_000)
def _char(char):
    """Its fold, and whether it joins the character before it."""
    return _fold_cluster(char), bool(unicodedata.combining(char)) or char in JOINING


def _folded_clusters(text):
    """(start, end, folded) for each character with the marks that join it, so a match maps back to the text."""
    infos = [_char(char) for char in text]
    start, length = 0, len(text)
    while start < length:
        end = start + 1
        while end < length and infos[end][1]:
            end += 1
        yield start, end, infos[start][0] if end == start + 1 else _fold_cluster(text[start:end])
        start = end


def fold(text):
    return "".join(piece for _start, _end, piece in _folded_clusters(text))


def fold_with_spans(text):
    """The folded text, and for each of its characters the (start, end) in `text` it came from."""
    folded, spans = [], []
    for start, end, piece in _folded_clusters(text):
        folded.append(piece)
        spans.extend([(start, end)] * len(piece))
    return "".join(folded), spans


def clean(text):
    """User input made safe to show and to store: no control or format characters, no lone surrogates."""
    return unicodedata.normalize("NFC", _visible(text.encode("utf-8", "ignore").decode("utf-8")))


@lru_cache(maxsize=50_000)
def stem(word):
    return _english.stemWord(word)


def words(folded):
    """The Latin-script words of folded text: "pre-game" is two words, "闇の腹心" none."""
    return [word for word in WORD.findall(folded) if not CJK_LETTER.search(word)]


def stems(folded):
    """The stems of its words in spaces, " a player scri two card ", so that a phrase in spaces matches whole stems."""
    found = [stem(word) for word in words(folded)]
    return f" {' '.join(found)} " if found else ""


def stem_phrase(term):
    """The stems of a query term made only of Latin words ("scried", "drew four", "pre-game"), else None."""
    if CJK_LETTER.search(term) or not WORDS_ONLY.fullmatch(term):
        return None
    found = words(term)
    return None if all(word.isdigit() for word in found) else " ".join(stem(word) for word in found)
