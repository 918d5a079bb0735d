"""Every entry of the index kept in memory per content version, with the ids of the entries holding each trigram,
each CJK letter and pair of letters, and each stem: where search and translation memory find. It finds exactly what a
scan of every entry with `holds_term` finds (tests/scan.py)."""

from collections import Counter, defaultdict
from functools import cached_property
from typing import NamedTuple

from django.db import connection
from django.db.models import Count, Max

from ipgsite.caching.versions import content_version
from ipgsite.ipg.text import CJK_RUN, is_cjk

from .models import Entry

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


def holds_term(term, folded, stems):
    """Whether an entry's fold or stems hold the term: any of its forms, or of its stem phrases."""
    return any(form in folded for form in term.forms) or any(f" {phrase} " in stems for phrase in term.stems)


def is_indexed(form):
    """Whether the index holds what finds the form: its trigrams, or the CJK letter or pair it is."""
    return len(form) >= 3 or (bool(form) and all(map(is_cjk, form)))


def trigrams(folded):
    return {folded[at : at + 3] for at in range(len(folded) - 2)}


class Kept:
    """The entries ({id: Found}), and the ids of those holding each gram of text and each stem, built when first
    asked."""

    def __init__(self, entries):
        self.entries = entries

    @cached_property
    def _grams(self):
        grams = defaultdict(list)
        for pk, entry in self.entries.items():
            found = trigrams(entry.folded)
            for run in CJK_RUN.findall(entry.folded):
                found.update(run)
                found.update(run[at : at + 2] for at in range(len(run) - 1))
            for gram in found:
                grams[gram].append(pk)
        return grams

    @cached_property
    def _stems(self):
        stems = defaultdict(list)
        for pk, entry in self.entries.items():
            for stem in set(entry.stems.split()):
                stems[stem].append(pk)
        return stems

    @cached_property
    def _texts(self):
        return {(e.paragraph_id, e.note_id, e.language) for e in self.entries.values()}

    def holding_form(self, form):
        """The ids of the entries whose folded text contains `form`."""
        if len(form) >= 3:
            rarest = min((self._grams.get(form[at : at + 3], ()) for at in range(len(form) - 2)), key=len)
            return [pk for pk in rarest if form in self.entries[pk].folded]
        if is_indexed(form):
            return self._grams.get(form, [])
        return [pk for pk, entry in self.entries.items() if form in entry.folded]

    def holding_stems(self, phrase):
        """The ids of the entries whose stems hold the stem phrase, whole stems only."""
        if not phrase.split():
            return []
        rarest = min((self._stems.get(word, ()) for word in phrase.split()), key=len)
        return [pk for pk in rarest if f" {phrase} " in self.entries[pk].stems]

    def holding(self, term):
        return set().union(*map(self.holding_form, term.forms), *map(self.holding_stems, term.stems))

    def matching(self, terms, languages=(), kinds=()):
        """The ids of the entries that match every term, in one of the languages and kinds (if given). A term with a
        form the index does not hold ("to", "in") is checked on the entries the others find."""
        checked = [term for term in terms if not all(map(is_indexed, term.forms))]
        found = None
        for term in terms:
            if term not in checked:
                found = self.holding(term) if found is None else found & self.holding(term)
                if not found:
                    return frozenset()
        entries = self.entries
        return frozenset(
            pk
            for pk in (entries.keys() if found is None else found)
            if (not languages or (entries[pk].language or "") in languages)
            and (not kinds or entries[pk].kind in kinds)
            and all(holds_term(term, entries[pk].folded, entries[pk].stems) for term in checked)
        )

    def similar(self, entry, target, limit, wanted):
        """Translation memory's candidates (search/similar.py), sharing most of the entry's rarest trigrams first; all
        of its trigrams when fewer than `wanted` share them."""
        grams = sorted((g for g in trigrams(entry.folded) if " " not in g), key=lambda g: len(self._grams.get(g, ())))
        entries, found, shared = self.entries, [], Counter()
        for asked in (grams[:SIMILAR_GRAMS], grams[SIMILAR_GRAMS:]):
            for gram in asked:
                shared.update(self._grams.get(gram, ()))
            found = [
                pk
                for pk in shared
                if pk != entry.id
                and entries[pk].language == entry.language
                and (entries[pk].paragraph_id, entries[pk].note_id, target) in self._texts
            ]
            if len(found) >= wanted:
                break
        found.sort(key=lambda pk: (-shared[pk], pk))
        return [entries[pk] for pk in found[:limit]]


_kept = {}  # content version -> Kept


def kept_entries():
    """Every entry, read once per content version; in a transaction, whose rows may yet be rolled back and an id given
    again, once per content version, highest id and count."""
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
