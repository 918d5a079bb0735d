"""What each query term also matches: its inflections, its simplified spelling, and (with the termbase) its
names in every language.

A term matches an entry when the entry's folded text contains any of the term's *forms*, or its stems contain
any of the term's *stem phrases*:
- the term as typed ("scried");
- its English stems ("scri"), which "scries" and "scry" share (search/stemming.py);
- typed in traditional Chinese characters (黑暗親信), the same converted to simplified (黑暗亲信) by OpenCC.
  Only the query is converted, never the text: a converted IPG text would pass for a translation.
"""

import re
from dataclasses import dataclass
from functools import lru_cache

from .folding import fold
from .stemming import stem_phrase

KANA = re.compile("[\u3041-\u309f\u30a0-\u30ff\u31f0-\u31ff\uff66-\uff9f]")
HAN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003ffff]")


@dataclass(frozen=True)
class Term:
    """One term of a query and everything it matches."""

    text: str  # the folded term, as the reader typed it
    forms: tuple  # folded strings: an entry containing any of them matches (the term itself first)
    words: tuple = ()  # phrases of Latin-script words ("scried", "drew four"): an entry matches any in stems

    @property
    def stems(self):
        """The stem phrases of `words` ("scri", "drew four"): what SQLite and the LIKE scan look for in the stems."""
        return tuple(dict.fromkeys(stem_phrase(phrase) for phrase in self.words))


@lru_cache(maxsize=1)
def _converter():
    import opencc

    return opencc.OpenCC("t2s")


@lru_cache(maxsize=4096)
def simplified(term):
    """The term in simplified Chinese characters, if it is Chinese written otherwise; else None.
    A term with kana is Japanese, whose kanji (闇, 術) are not traditional Chinese to convert."""
    if not HAN.search(term) or KANA.search(term):
        return None
    converted = fold(_converter().convert(term))
    return converted if converted != term else None


def without_redundant(forms):
    """Forms in order, less those that contain another form (which finds all they would)."""
    kept = []
    for form in dict.fromkeys(f for f in forms if f):
        if not any(other != form and other in form for other in forms if other):
            kept.append(form)
    return tuple(kept)


def expand(terms):
    """Each folded query term with its forms and stem phrases."""
    expanded = []
    for text in terms:
        forms = [text]
        converted = simplified(text)
        if converted:
            forms.append(converted)
        words = (text,) if len(text) >= 3 and stem_phrase(text) else ()
        expanded.append(Term(text=text, forms=without_redundant(forms), words=words))
    return expanded
