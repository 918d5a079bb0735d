"""Partial matches: when no entry holds every word of a query, the entries that hold most of them.

A judge describes a situation in words the text may lack ("eight cards in opening hand": the IPG never says
"opening"). Rather than an empty page:
- the words that find nothing anywhere are missing from every result;
- the others are tried together (with the query's small words, as the whole query was: so a query with one
  nonsense word added finds exactly what it finds without it), then without the small words, then in ever smaller
  groups: the results are the entries holding one of the largest groups that any entry holds;
- each result says which of the query's words it lacks.
Small words ("in", "to", "the"; 的, 了) are never required here, and never reported missing.
"""

from itertools import combinations

MAX_TRIES = 12  # groups of words tried together; beyond, each word alone
SMALL_WORDS = frozenset(
    "a an and are as at be by for from has have he her his in into is it its of on or she that the their them then"
    " they this to was were when with 的 了 在 是 和 与 之 が を に は の で と も".split()
)


def is_small(term):
    return term.text in SMALL_WORDS


def holds_term(term, folded, stems):
    """Whether an entry's fold or stems hold the term, as the search looks for it."""
    return any(form in folded for form in term.forms) or any(f" {phrase} " in stems for phrase in term.stems)


def tries(terms, finds):
    """(the terms no entry holds, the groups of the others to look for, in lists of the same size, largest first):
    the results are the entries holding every term of one of the groups in the first list where any entry does.
    `finds(term)` says whether any entry holds the term. No groups when no word (other than small ones) is found."""
    words = [term for term in terms if not is_small(term)]
    missing = [term for term in words if not finds(term)]
    kept = [term for term in words if term not in missing]
    if not kept:
        return missing, []
    with_small = [term for term in terms if term not in missing]
    found = [[with_small]] if with_small not in (terms, kept) else []
    left = MAX_TRIES
    for size in range(len(kept), 1, -1):
        groups = [list(group) for group in combinations(kept, size) if list(group) != terms][:left]
        left -= len(groups)
        if groups:
            found.append(groups)
    return missing, [*found, [[term] for term in kept]]


def lacking(terms, folded, stems):
    """The words of the query (less small ones) that an entry lacks."""
    return [term.text for term in terms if not is_small(term) and not holds_term(term, folded, stems)]
