"""Every entry of the index kept in memory, with an index of its text: where the default backend finds.

The entries are read once per content version (backends.kept_entries). The first search that asks which entries hold
a term builds, from their folded text, the ids of the entries holding each trigram, each CJK letter and each pair of
adjacent CJK letters, and each stem. A term is then looked up without a round trip to the database:
- a form of 3 or more characters: the entries holding its rarest trigram, checked for the whole form;
- a form of 1 or 2 CJK letters: the entries holding that letter or pair, as they are;
- anything else (1 or 2 Latin characters, an emoji): every entry, checked;
- a stem phrase: the entries holding its rarest stem, checked for the whole phrase among their stems.
It finds exactly what a `LIKE` scan finds (search.partial.holds_term is the same test on one entry).
"""

from collections import defaultdict

from .folding import CJK_RUN, is_cjk
from .partial import holds_term


def is_short_cjk(form):
    return len(form) < 3 and all(is_cjk(char) for char in form)


def is_indexed(form):
    """Whether the index holds what finds the form: its trigrams, or the CJK letter or pair it is."""
    return len(form) >= 3 or (bool(form) and is_short_cjk(form))


class Kept:
    """The entries ({id: backends.Found}), and the ids of those holding each gram of text and each stem."""

    def __init__(self, entries):
        self.entries = entries
        self._grams = self._stems = None

    def _build(self):
        grams, stems = defaultdict(list), defaultdict(list)
        for pk, entry in self.entries.items():
            folded = entry.folded
            found = {folded[at : at + 3] for at in range(len(folded) - 2)}
            for run in CJK_RUN.findall(folded):
                found.update(run)
                found.update(run[at : at + 2] for at in range(len(run) - 1))
            for gram in found:
                grams[gram].append(pk)
            for stem in set(entry.stems.split()):
                stems[stem].append(pk)
        self._grams, self._stems = grams, stems

    def holding_form(self, form):
        """The ids of the entries whose folded text contains `form`."""
        if self._grams is None:
            self._build()
        entries = self.entries
        if len(form) >= 3:
            rarest = min((self._grams.get(form[at : at + 3], ()) for at in range(len(form) - 2)), key=len)
            return [pk for pk in rarest if form in entries[pk].folded]
        if is_indexed(form):
            return self._grams.get(form, [])
        return [pk for pk, entry in entries.items() if form in entry.folded]

    def holding_stems(self, phrase):
        """The ids of the entries whose stems hold the stem phrase, whole stems only."""
        if self._stems is None:
            self._build()
        words = phrase.split()
        if not words:
            return []
        rarest = min((self._stems.get(word, ()) for word in words), key=len)
        spaced = f" {phrase} "
        return [pk for pk in rarest if spaced in self.entries[pk].stems]

    def holding(self, term):
        """The ids of the entries that match the term: any of its forms, or any of its stem phrases."""
        found = set()
        for form in term.forms:
            found.update(self.holding_form(form))
        for phrase in term.stems:
            found.update(self.holding_stems(phrase))
        return found

    def matching(self, terms, languages=(), kinds=()):
        """The ids of the entries that match every term, in one of the languages and of one of the kinds (if
        given). A term with a form the index does not hold ("to", "in") is checked on the entries the others find."""
        checked = [term for term in terms if not all(map(is_indexed, term.forms))]
        found = None
        for term in terms:
            if term not in checked:
                held = self.holding(term)
                found = held if found is None else found & held
                if not found:
                    return frozenset()
        entries = self.entries
        if found is None:
            found = entries.keys()
        if languages or kinds:
            found = [
                pk
                for pk in found
                if (not languages or (entries[pk].language or "") in languages)
                and (not kinds or entries[pk].kind in kinds)
            ]
        if checked:
            found = [
                pk for pk in found if all(holds_term(term, entries[pk].folded, entries[pk].stems) for term in checked)
            ]
        return frozenset(found)
