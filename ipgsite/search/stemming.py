"""English stems, so that "scried", "scries" and "scry" find each other: Snowball's English stemmer (Porter2),
the algorithm PostgreSQL's `english` configuration uses too.

Only words in Latin script are stemmed; Chinese and Japanese text has none of these inflections.
"""

import re
from functools import lru_cache

import snowballstemmer

from ipgsite.ipg.text import CJK_LETTER

WORD = re.compile(r"[^\W_]+")
WORDS_ONLY = re.compile(r"[^\W_]+(?:[\s\-'’./]+[^\W_]+)*")  # words joined by spaces, hyphens, apostrophes
_english = snowballstemmer.stemmer("english")


@lru_cache(maxsize=50_000)
def stem(word):
    return _english.stemWord(word)


def words(folded):
    """The Latin-script words of folded text, in order: "pre-game" is two words, "闇の腹心" none."""
    return [word for word in WORD.findall(folded) if not CJK_LETTER.search(word)]


def stems(folded):
    """The stems of the words of folded text, space-separated, with a space at each end: " a player scri two card "
    (so that a phrase of stems in spaces matches whole stems only)."""
    found = [stem(word) for word in words(folded)]
    return f" {' '.join(found)} " if found else ""


def stem_phrase(term):
    """The stems of a query term made only of Latin words ("scried", "drew four", "pre-game"), else None."""
    if CJK_LETTER.search(term) or not WORDS_ONLY.fullmatch(term):
        return None
    found = words(term)
    if all(word.isdigit() for word in found):  # "2.3" is a number, not words
        return None
    return " ".join(stem(word) for word in found)
