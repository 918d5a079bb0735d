"""What each query term also matches: its English stems, its simplified Chinese spelling, and, when it names a term
of the termbase (`ipgsite.terms`), every name and variant of that term in every language ("scry" finds 占術)."""

from dataclasses import dataclass
from functools import lru_cache

from ipgsite.ipg.text import HAN_CHAR as HAN
from ipgsite.ipg.text import KANA_CHAR as KANA

from .folding import fold, stem_phrase

MAX_WORDS_IN_A_NAME = 4
MAX_RANKED_FORMS = 3


def folded_name(name):
    return " ".join(fold(name).split())


@dataclass(frozen=True)
class Term:
    text: str  # the folded term, as the reader typed it
    forms: tuple  # folded strings: an entry containing any of them matches (the term itself first)
    words: tuple = ()  # phrases of Latin-script words ("scried", "drew four"): an entry matches any in stems
    named: object = None  # the termbase's TermForms that the term names, if any

    def ranked_forms(self, language):
        """The forms that rank an entry: as typed, and the term's names in the reader's language."""
        forms = [self.text, simplified(self.text) or self.text]
        if self.named is not None:
            forms += [folded_name(form) for code, form in self.named.forms() if code == language]
        return tuple(form for form in dict.fromkeys(forms) if form in self.forms)[:MAX_RANKED_FORMS]

    @property
    def stems(self):
        return tuple(dict.fromkeys(stem_phrase(phrase) for phrase in self.words))


@lru_cache(maxsize=1)
def _converter():
    import opencc

    return opencc.OpenCC("t2s")


@lru_cache(maxsize=4096)
def simplified(term):
    """The term in simplified characters if it is Chinese written otherwise, else None. Only the query is converted:
    converted IPG text would pass for a translation. Kanji with kana are Japanese, not traditional Chinese."""
    if not HAN.search(term) or KANA.search(term):
        return None
    converted = fold(_converter().convert(term))
    return converted if converted != term else None


def without_redundant(forms):
    """Forms in order, less those that contain another form (which finds all they would)."""
    forms = [form for form in dict.fromkeys(forms) if form]
    return tuple(form for form in forms if not any(other != form and other in form for other in forms))


class Names:
    """The termbase's folded forms, each with its term: by the form, and by its stems ("mulligans" → "mulligan")."""

    def __init__(self, vocabulary):
        self.by_form, self.by_stems = {}, {}
        for term in vocabulary:
            for _code, form in term.forms():
                folded = folded_name(form)
                self.by_form.setdefault(folded, term)
                if phrase := stem_phrase(folded):
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
    forms, words = [text, simplified(text)], [text] if len(text) >= 3 and stem_phrase(text) else []
    if named is not None:
        names = [folded_name(form) for _code, form in named.forms()]
        forms += names
        words += [name for name in names if stem_phrase(name)]
    return Term(text=text, forms=without_redundant(forms), words=tuple(dict.fromkeys(words)), named=named)


def expand(terms, vocabulary=()):
    """Each folded query term with its forms and stem phrases; consecutive terms that together are a name of the
    termbase ("dark confidant") are one term, whose words must then stand together."""
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
