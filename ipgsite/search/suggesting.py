""" "Did you mean": the names of sections and terms a query nearly spells ("Hiden Card Eror", "mulligna"), by the
optimal string alignment distance (a swap counts once)."""

from dataclasses import dataclass

from rapidfuzz import process
from rapidfuzz.distance import OSA

from ipgsite.crosslinks.matching import canonical
from ipgsite.ipg import languages

from .expanding import simplified
from .folding import fold, stem_phrase, words

MAX_SUGGESTIONS = 3


@dataclass(frozen=True)
class Suggestion:
    text: str  # what to search for instead, as a name is written
    language: str

    @property
    def lang(self):
        return languages.html_lang(self.language)


def allowed_distance(key):  # shorter queries are near too much
    return 0 if len(key) < 4 else 1 if len(key) < 8 else 2


def _key(text):
    return canonical(fold(text)).strip()


class Spellings:
    """Names to suggest: folded key -> (the name as written, its language); and their words, for single words."""

    def __init__(self, spellings):
        self.spellings = dict(spellings)
        self.keys = list(self.spellings)
        self.word_keys = list(dict.fromkeys(word for key in self.keys for word in words(key) if len(word) >= 4))
        self.stems = {phrase for key in self.keys if (phrase := stem_phrase(key))}

    def knows(self, key):
        """Whether `key` is a name, or another form of one ("mulligans" of "mulligan")."""
        return key in self.spellings or stem_phrase(key) in self.stems or simplified(key) in self.spellings

    def near(self, key, choices):
        allowed = allowed_distance(key)
        if not allowed:
            return []
        found = process.extract(key, choices, scorer=OSA.distance, score_cutoff=allowed, limit=MAX_SUGGESTIONS + 2)
        return [choice for choice, distance, _index in sorted(found, key=lambda f: (f[1], f[2])) if distance > 0]


def _corrected(term, spellings, finds):
    near = spellings.near(term, spellings.word_keys) if words(term) == [term] and not spellings.knows(term) else []
    return near[0] if near and not finds(term) else term


def did_you_mean(query, spellings, found_nothing, finds):
    """Names near the whole query; and, when it found nothing, the query with each word that finds nothing alone
    (`finds(term)`) replaced by the nearest word of a name."""
    if not query.text:
        return []
    key = _key(query.text)
    suggestions = []
    if not spellings.knows(key):
        suggestions += [Suggestion(*spellings.spellings[choice]) for choice in spellings.near(key, spellings.keys)]
    if found_nothing and query.terms:
        corrected = [_corrected(term, spellings, finds) for term in query.terms]
        if corrected != query.terms:
            suggestions.append(Suggestion(" ".join(corrected), languages.SOURCE))
    unique = {}
    for suggestion in suggestions:
        if _key(suggestion.text) != key:
            unique.setdefault(_key(suggestion.text), suggestion)
    return list(unique.values())[:MAX_SUGGESTIONS]
