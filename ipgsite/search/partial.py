"""Partial matches: when no entry holds every word of a query, the entries that hold most of them.

A judge describes a situation in words the text may lack ("eight cards in opening hand": the IPG never says
"opening"). Rather than an empty page:
- the words that find nothing anywhere are missing from every result;
- the others are tried together (with the query's small words, as the whole query was: so a query with one
  nonsense word added finds exactly what it finds without it), then without the small words, then in smaller
  groups: the results are the entries holding one of the largest groups that any entry holds;
- each result says which of the query's words it lacks.
Small words ("in", "to", "the"; 的, 了) are never required here, and never reported missing.

The groups are made one at a time, largest first and in the order the words were typed, and only as many as are
tried (MAX_TRIES): never every group of n words, which would be 2^n of them.
"""

from dataclasses import dataclass
from itertools import combinations, islice

MAX_TRIES = 12  # groups of two words or more tried together; beyond, each word alone
SMALL_WORDS = frozenset(
    "a an and are as at be by for from has have he her his in into is it its of on or she that the their them then"
    " they this to was were when with 的 了 在 是 和 与 之 が を に は の で と も".split()
)


def is_small(term):
    return term.text in SMALL_WORDS


def holds_term(term, folded, stems):
    """Whether an entry's fold or stems hold the term, as the search looks for it."""
    return any(form in folded for form in term.forms) or any(f" {phrase} " in stems for phrase in term.stems)


@dataclass(frozen=True)
class Level:
    """Groups of the query's words tried together: the results are the entries holding every term of one group."""

    groups: tuple  # tuples of Terms
    terms: tuple  # the terms of every group of the level, in the query's order: what ranks and marks the results
    ids: frozenset  # the entries holding the words (not small ones) of a group; the small words are checked after


def tries(terms, holding):
    """(the terms no entry holds, the levels of groups to try, largest first, made as they are asked for): the results
    are the entries of the first level that holds the small words of its groups too. `holding` gives the ids of the
    entries holding each word (not small ones), by its text. The levels: the words found, with the query's small
    words; then groups of the words found, without them, at most MAX_TRIES groups in all; then each word alone. No
    level when no word (other than small ones) is found."""
    words = [term for term in terms if not is_small(term)]
    missing = [term for term in words if not holding[term.text]]
    kept = [term for term in words if term not in missing]
    return missing, _levels(terms, kept, missing, holding) if kept else iter(())


def _levels(terms, kept, missing, holding):
    def level(groups):
        terms = tuple({term.text: term for group in groups for term in group}.values())
        ids = (frozenset.intersection(*(holding[t.text] for t in group if t.text in holding)) for group in groups)
        return Level(tuple(groups), terms, frozenset().union(*ids))

    with_small = [term for term in terms if term not in missing]
    if with_small not in (terms, kept):
        yield level([tuple(with_small)])
    left = MAX_TRIES
    for size in range(len(kept), 1, -1):
        if not left:
            break
        groups = list(islice((group for group in combinations(kept, size) if list(group) != terms), left))
        left -= len(groups)
        if groups:
            yield level(groups)
    yield level([(term,) for term in kept])


def lacking(terms, folded, stems):
    """The words of the query (less small ones) that an entry lacks."""
    return [term.text for term in terms if not is_small(term) and not holds_term(term, folded, stems)]
