"""One query's search among the kept entries: how many match every term, and one page of them in rank order.

Rank: text in the page's language first; then the paragraph defining the name searched for, the kind of text the query
asks for, the closeness of a split phrase's parts; then how densely the typed term and its names in the reader's
language occur; ties go to official text, then examples, then notes, then the entry's id.
"""

import heapq
from collections import defaultdict
from dataclasses import dataclass

from .kept import entries_of, holds_term, kept_entries

KIND_ORDER = {"text": 0, "example": 1}  # ties: official text, then examples, then notes (2)
PREFERRED = {
    "": {},
    "examples": {"example": 0, "text": 1},  # a situation: its examples
    "official": {"text": 0, "example": 0},  # a name: the text itself before commentary on it
}
MAX_PLACED_FORMS = 4


@dataclass(frozen=True)
class Ranking:
    prefer: str = ""
    defining: int | None = None  # the id of the paragraph that defines the term the query names
    phrases: tuple = ()  # CJK phrases split into parts: each a tuple of its parts' Terms


class Search:
    """One query's search; or, with `ids`, among those entries, which must also match the terms `required`."""

    ranked = 0  # the entries the last page was ranked among

    def __init__(self, terms, languages=(), kinds=(), page_language="en", ranking=None, ids=None, required=()):
        self.terms, self.page_language, self.ranking = list(terms), page_language, ranking or Ranking()
        if ids is None:
            self.ids = kept_entries().matching(self.terms, tuple(languages), tuple(kinds))
        elif required:
            entries = entries_of(ids).values()
            self.ids = frozenset(e.id for e in entries if all(holds_term(t, e.folded, e.stems) for t in required))
        else:
            self.ids = frozenset(ids)

    def page(self, offset, limit):
        """How many entries match, and those at [offset, offset + limit) in rank order, as `Found`: among those in the
        page's language if enough. The entries are sorted into a few heads (`rank_head`) and only the heads the page
        reaches are ranked in full."""
        entries = entries_of(self.ids)
        own = [entry for entry in entries.values() if entry.language == self.page_language]
        ranked = own if len(own) >= offset + limit else entries.values()
        self.ranked = len(ranked)
        head, key, wanted = self.rank_head(), self.rank_key(), offset + limit
        heads = defaultdict(list)
        for entry in ranked:
            heads[head(entry)].append(entry)
        found = []
        for first in sorted(heads):
            found += heapq.nsmallest(wanted - len(found), heads[first], key=key)
            if len(found) >= wanted:
                break
        return len(entries), found[offset:]

    def rank_head(self):
        """Each entry's first rank keys: the page's language, the paragraph defining the term, the kind preferred."""
        language, defining, preferred = self.page_language, self.ranking.defining, PREFERRED[self.ranking.prefer]

        def head(entry):
            order = (entry.language != language) << 1 | (
                defining is not None and (entry.paragraph_id != defining or entry.note_id is not None)
            )
            return order << 2 | preferred.get(entry.kind, 2)

        return head

    def rank_key(self):
        """Each entry's rank as one number, each key in bits of its own."""
        head = self.rank_head()
        # For each split phrase, for each of its parts, the forms whose first place in a text is the part's place.
        phrases = tuple(tuple(tuple(part.forms[:MAX_PLACED_FORMS]) for part in parts) for parts in self.ranking.phrases)
        forms = [(form, len(form.encode())) for term in self.terms for form in term.ranked_forms(self.page_language)]
        forms = [(form, length) for form, length in forms if form]
        last = len(forms) - 1

        def key(entry):
            rest, removed = entry.folded, 0  # the bytes that removing every form, one after another, takes away
            for at, (form, length) in enumerate(forms):
                found = rest.count(form)
                if found:
                    removed += found * length
                    if at < last:
                        rest = rest.replace(form, "")
            order = head(entry) << 32 | (placed_spread(entry.folded, phrases) if phrases else 0)
            order = order << 14 | (10000 - removed * 10000 // (entry.size + 200))
            return (order << 2 | KIND_ORDER.get(entry.kind, 2)) << 48 | entry.id

        return key


def placed_spread(folded, phrases):
    """How far apart the parts of each phrase are in this text, summed: each part's place is the furthest first place
    of its forms (0 where none is found)."""
    total = 0
    for parts in phrases:
        places = [max(map(folded.find, forms)) + 1 for forms in parts]
        total += max(places) - min(places)
    return total
