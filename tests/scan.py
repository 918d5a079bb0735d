"""A plain scan of every entry of the search index, for tests only: the reference that the entries kept in memory and
their index (ipgsite/search/kept.py) are held to."""

from ipgsite.search.expanding import expand
from ipgsite.search.finding import Finds, split_phrases
from ipgsite.search.kept import holds_term, kept_entries
from ipgsite.search.models import Entry
from ipgsite.terms.lookup import vocabulary


def scan(terms, languages=(), kinds=()):
    """The ids of the entries that hold every term (any of its forms, or of its stem phrases), read one by one."""
    rows = Entry.objects.values_list("id", "language", "kind", "folded", "stems")
    return frozenset(
        pk
        for pk, language, kind, folded, stems in rows
        if (not languages or language in languages)
        and (not kinds or kind in kinds)
        and all(holds_term(term, folded, stems) for term in terms)
    )


def searched_terms(query):
    """The terms a search of the query looks up: as typed and expanded, then with CJK phrases split into parts."""
    termbase = vocabulary()
    terms = expand(query.terms, termbase)
    return terms, split_phrases(terms, termbase, Finds(query, termbase))[0]


def assert_kept_finds_as_a_scan_does(query):
    """Each term the search looks up, and all of them together, find the same entries in the kept index as in a scan,
    with the query's filters."""
    kept = kept_entries()
    for terms in searched_terms(query):
        for group in [[term] for term in terms] + [terms]:
            found = kept.matching(group, query.languages, query.kinds)
            assert found == scan(group, query.languages, query.kinds), [term.text for term in group]
