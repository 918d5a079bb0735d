"""Every entry of the index kept in memory per content version, with an index of its text: where search finds, and
where translation memory finds texts like a given one. No other index: the database only stores the entries.

The entries are read once per content version (`kept_entries`). The first lookup builds, from their folded text, the
ids of the entries holding each trigram, each CJK letter and each pair of adjacent CJK letters, and each stem:
- a form of 3 or more characters: the entries holding its rarest trigram, checked for the whole form;
- a form of 1 or 2 CJK letters: the entries holding that letter or pair, as they are;
- anything else (1 or 2 Latin characters, an emoji): every entry, checked;
- a stem phrase: the entries holding its rarest stem, checked for the whole phrase among their stems.
It finds exactly what a scan of every entry finds (`partial.holds_term` is that test on one entry).
"""

from collections import Counter, defaultdict
from typing import NamedTuple

from django.db import connection
from django.db.models import Count, Max

from ipgsite.caching.versions import content_version
from ipgsite.ipg.text import CJK_RUN, is_cjk

from .models import Entry
from .partial import holds_term

FIELDS = (
    "id",
    "section_id",
    "note_id",
    "language",
    "kind",
    "text",
    "folded",
    "stems",
    "paragraph__key",
    "paragraph_id",
)
SIMILAR_GRAMS = 32  # the text's rarest trigrams that rank translation memory's candidates


class Found(NamedTuple):
    """One entry, as kept."""

    id: int
    section_id: int
    note_id: int | None
    language: str
    kind: str
    text: str
    folded: str
    stems: str  # the stems of its words, " in spaces "
    key: str  # its paragraph's key
    paragraph_id: int
    size: int  # the folded text's length in bytes


def read_entries(ids=None):
    rows = Entry.objects.values_list(*FIELDS)
    if ids is not None:
        rows = rows.filter(id__in=list(ids))
    return {row[0]: Found(*row, len(row[6].encode())) for row in rows}


def is_indexed(form):
    """Whether the index holds what finds the form: its trigrams, or the CJK letter or pair it is."""
    return len(form) >= 3 or (bool(form) and all(map(is_cjk, form)))


class Kept:
    """The entries ({id: Found}), and the ids of those holding each gram of text and each stem."""

    def __init__(self, entries):
        self.entries = entries
        self._grams = self._stems = self._texts = None

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
        self._texts = {(e.paragraph_id, e.note_id, e.language) for e in self.entries.values()}

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

    def similar(self, entry, target, limit, wanted):
        """Translation memory's candidates for `entry`: entries in its language, other than itself, whose text is also
        kept in the `target` language, at most `limit`, those sharing most of its rarest trigrams first (then all of
        its trigrams, when fewer than `wanted` share them)."""
        if self._grams is None:
            self._build()
        folded = entry.folded
        grams = sorted(
            {folded[at : at + 3] for at in range(len(folded) - 2)} - {""}, key=lambda g: len(self._grams.get(g, ()))
        )
        grams = [gram for gram in grams if " " not in gram]
        entries, texts, found, shared = self.entries, self._texts, [], Counter()
        for asked in (grams[:SIMILAR_GRAMS], grams[SIMILAR_GRAMS:]):
            for gram in asked:
                shared.update(self._grams.get(gram, ()))
            found = [
                pk
                for pk in shared
                if pk != entry.id
                and entries[pk].language == entry.language
                and (entries[pk].paragraph_id, entries[pk].note_id, target) in texts
            ]
            if len(found) >= wanted:
                break
        found.sort(key=lambda pk: (-shared[pk], pk))
        return [entries[pk] for pk in found[:limit]]


_kept = {}  # content version -> Kept


def kept_entries():
    """Every entry (`Kept`), read once per content version, as the sections' names are. An entry is never changed in
    place (the index deletes rows and adds new ones), and its paragraph's key changes only with the content version.

    Inside a transaction, rows read may yet be rolled back, and an id given again: there the entries are known by the
    content version, the highest id and the count together."""
    version = content_version()
    if connection.in_atomic_block:
        version = (version, *Entry.objects.aggregate(Max("id"), Count("id")).values())
    known = _kept.get(version)
    if known is None:
        known = Kept(read_entries())
        _kept.clear()
        _kept[version] = known
    return known


def entries_of(ids):
    """{id: Found} of the entries with these ids that exist: as kept, and any newer one read now."""
    known = kept_entries().entries
    found = {pk: known[pk] for pk in ids if pk in known}
    return found | read_entries(ids - found.keys()) if len(found) < len(ids) else found
