"""What each query term also matches: its inflections, its simplified spelling, and its names in every language.

A term matches an entry when the entry's folded text contains any of the term's *forms*, or its stems contain
any of the term's *stem phrases*:
- the term as typed ("scried");
- its English stems ("scri"), which "scries" and "scry" share (search/stemming.py);
- typed in traditional Chinese characters (黑暗親信), the same converted to simplified (黑暗亲信) by OpenCC.
  Only the query is converted, never the text: a converted IPG text would pass for a translation;
- where the query names a term of the termbase (`ipgsite.terms`) by any of its names or variants, in any language
  ("scry", "scried", "drew", "Dark Confidant", 占卜, 黑暗親信): every name and variant of that term in every
  language, so that "scry" finds the Japanese 占術 and "drew" finds "draws" (variants hold the irregular forms).
  A name of several words is one term ("dark confidant"), whose words must then stand together.
"""

from dataclasses import dataclass
from functools import lru_cache

from ipgsite.ipg.text import HAN_CHAR as HAN
from ipgsite.ipg.text import KANA_CHAR as KANA

from .folding import fold
from .stemming import stem_phrase

MAX_WORDS_IN_A_NAME = 4
MAX_RANKED_FORMS = 3


@dataclass(frozen=True)
class Term:
    """One term of a query and everything it matches."""

    text: str  # the folded term, as the reader typed it
    forms: tuple  # folded strings: an entry containing any of them matches (the term itself first)
    words: tuple = ()  # phrases of Latin-script words ("scried", "drew four"): an entry matches any in stems

    named: object = None  # the termbase's TermForms that the term names, if any

    def ranked_forms(self, language):
        """The forms that rank an entry: as typed, and the term's forms in the reader's language (the other
        languages' entries come after the reader's anyway). Fewer forms, less work per entry."""
        forms = [self.text, simplified(self.text) or self.text]
        if self.named is not None:
            forms += [" ".join(fold(form).split()) for code, form in self.named.forms() if code == language]
        return tuple(form for form in dict.fromkeys(forms) if form in self.forms)[:MAX_RANKED_FORMS]

    @property
    def stems(self):
        """The stem phrases of `words` ("scri", "drew four"): what is looked for in an entry's stems."""
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


class Names:
    """The termbase's forms, folded, each with its term: by the form itself, and, for a form in Latin script, by
    its stems ("mulligans" names the term whose form "mulligan" has the same stem)."""

    def __init__(self, vocabulary):
        self.by_form, self.by_stems = {}, {}
        for term in vocabulary:
            for _code, form in term.forms():
                folded = " ".join(fold(form).split())
                self.by_form.setdefault(folded, term)
                phrase = stem_phrase(folded)
                if phrase:
                    self.by_stems.setdefault(phrase, term)

    def named_by(self, text):
        named = self.by_form.get(text)
        if named is None and (phrase := stem_phrase(text)):
            named = self.by_stems.get(phrase)
        if named is None and (converted := simplified(text)):
            named = self.by_form.get(converted)
        return named


_names = [None, None]  # the vocabulary last read, and its Names


def names_of(vocabulary):
    if _names[0] is not vocabulary:
        _names[:] = [vocabulary, Names(vocabulary)]
    return _names[1]


def _term(text, named=None):
    forms = [text]
    converted = simplified(text)
    if converted:
        forms.append(converted)
    words = [text] if len(text) >= 3 and stem_phrase(text) else []
    if named is not None:
        for _code, form in named.forms():
            folded = " ".join(fold(form).split())
            forms.append(folded)
            if stem_phrase(folded):
                words.append(folded)
    return Term(text=text, forms=without_redundant(forms), words=tuple(dict.fromkeys(words)), named=named)


def expand(terms, vocabulary=()):
    """Each folded query term with its forms and stem phrases; consecutive terms that are together a name of the
    termbase are one term."""
    names = names_of(vocabulary) if vocabulary else None
    expanded, start = [], 0
    while start < len(terms):
        for end in range(min(len(terms), start + MAX_WORDS_IN_A_NAME), start, -1):
            text = " ".join(terms[start:end])
            named = names.named_by(text) if names else None
            if named is not None or end == start + 1:
                expanded.append(_term(text, named))
                start = end
                break
    return expanded
