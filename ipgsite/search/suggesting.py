""" "Did you mean": the names a query nearly spells ("Hiden Card Eror" → "Hidden Card Error", "mulligna" →
"mulligan"), from the sections' names (titles, their last part, aliases, in every language).

Nearness is the optimal string alignment distance (a swap of two letters counts once), at most 1 for a word of
4 to 7 characters and 2 for longer; nothing is suggested for shorter queries, which are near too much.
"""

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


def allowed_distance(key):
    return 0 if len(key) < 4 else 1 if len(key) < 8 else 2


def _key(text):
    return canonical(fold(text)).strip()


class Spellings:
    """Names to suggest: folded key -> (the name as written, its language); and their words, for single words."""

    def __init__(self, spellings):
        self.spellings = dict(spellings)
        self.keys = list(self.spellings)
        known = {}
        for key, (_name, code) in self.spellings.items():
            for word in words(key):
                if len(word) >= 4:
                    known.setdefault(word, code)
        self.words = known
        self.word_keys = list(known)
        self.stems = {phrase for key in self.keys if (phrase := stem_phrase(key))}

    def knows(self, key):
        """Whether `key` is a name, or another form of one ("mulligans" of "mulligan")."""
        converted = simplified(key)
        return key in self.spellings or stem_phrase(key) in self.stems or converted in self.spellings

    def near(self, key, choices):
        allowed = allowed_distance(key)
        if not allowed:
            return []
        found = process.extract(key, choices, scorer=OSA.distance, score_cutoff=allowed, limit=MAX_SUGGESTIONS + 2)
        return [choice for choice, distance, _index in sorted(found, key=lambda f: (f[1], f[2])) if distance > 0]


def did_you_mean(query, spellings, found_nothing, finds):
    """Names near the whole query; and, when it found nothing, the query with each word that finds nothing on its
    own replaced by the nearest word of a name. `finds(term)` says whether a folded term alone finds anything."""
    if not query.text:
        return []
    key = _key(query.text)
    suggestions = []
    if not spellings.knows(key):
        suggestions += [Suggestion(*spellings.spellings[choice]) for choice in spellings.near(key, spellings.keys)]
    if found_nothing and query.terms:
        corrected, changed = [], False
        for term in query.terms:
            near = (
                spellings.near(term, spellings.word_keys) if words(term) == [term] and not spellings.knows(term) else []
            )
            if near and not finds(term):
                corrected.append(near[0])
                changed = True
            else:
                corrected.append(term)
        if changed:
            suggestions.append(Suggestion(" ".join(corrected), languages.SOURCE))
    unique = {}
    for suggestion in suggestions:
        if _key(suggestion.text) != key:
            unique.setdefault(_key(suggestion.text), suggestion)
    return list(unique.values())[:MAX_SUGGESTIONS]
