"""Search and translation memory find in the entries kept in memory per content version (ipgsite/search/kept.py):
once kept, a search reads nothing of the index; the kept index finds what a scan of every entry finds (tests/scan.py);
memory asks it for a few candidates."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from edits import write
from ipgsite.search import similar
from ipgsite.search.finding import find
from ipgsite.search.models import Entry
from ipgsite.search.query import Query
from people import paragraph
from scan import assert_kept_finds_as_a_scan_does

pytestmark = pytest.mark.database  # the entries kept in memory are read from either database

DARK_CONFIDANT = (
    "A player resolves a Dark Confidant trigger, but forgets to reveal the card before putting it into their hand."
)


def outcome(query, reader="en"):
    """Everything a reader sees of a search: results, their snippets and missing words, sections, suggestions."""
    results = find(query, reader)
    return (
        results.total,
        results.partial,
        [section.number for section in results.sections],
        [(s.text, s.language) for s in results.suggestions],
        results.also,
        [(h.url, h.language, h.kind, h.snippet, h.missing) for group in results.groups for h in group.hits],
    )


@pytest.mark.parametrize("q", ["Dark Confidant", "占", "eight cards in opening hand", "先手抓牌", "mulligna"])
def test_a_search_through_the_kept_entries_reads_no_entry_from_the_database(transactional_db, q):
    """Committed, as in production: once the entries are kept for this content version, a search (a partial match,
    a split phrase, a near miss) reads nothing of the index; an edit makes a new version, read once."""
    query = Query.parse(q)
    first = outcome(query)
    assert first[0] > 0 or first[3]
    with CaptureQueriesContext(connection) as queries:
        assert outcome(query) == first
    assert [entry["sql"] for entry in queries.captured_queries if "search_entry" in entry["sql"]] == []
    write("2.3", "example-c", "en", "A capybara reveals the card.")
    with CaptureQueriesContext(connection) as queries:
        assert outcome(Query.parse("capybara"))[0] == 1
    assert len([entry for entry in queries.captured_queries if "search_entry" in entry["sql"]]) == 1


@pytest.mark.parametrize(
    "q, languages",
    [
        ("Dark Confidant", ()),
        ("scried", ()),  # stems
        ("scry", ("ja",)),  # a term's names in another language, filtered
        ("占", ()),  # one CJK character
        ("手札", ()),  # two
        ("多抓", ()),  # two the text lacks side by side: split into parts
        ("黑暗親信", ()),  # traditional characters
        ("of library", ()),  # two Latin letters: compared on the entries the other terms find
        ("eight cards in opening hand", ()),  # partial matches
        ("先手抓牌", ()),  # a CJK phrase split into parts
        ("手札が多すぎる", ()),
    ],
)
def test_the_kept_index_finds_what_a_scan_of_every_entry_finds(ipg, q, languages):
    assert_kept_finds_as_a_scan_does(Query.parse(q, languages))


def test_memory_asks_the_kept_entries_for_a_few_candidates_among_the_translated_texts(ipg):
    write("2.4", "example-a", "en", DARK_CONFIDANT)
    entry = similar.entry_of(paragraph("2.4", "example-a"), "en")
    assert entry.text == DARK_CONFIDANT and entry.language == "en" and entry.note_id is None
    few = similar.candidates(entry, "ja", limit=2, wanted=1)
    translated = set(Entry.objects.filter(language="ja").values_list("paragraph_id", "note_id"))
    every = Entry.objects.filter(language="en").exclude(id=entry.id).values_list("id", "paragraph_id", "note_id")
    every = {pk for pk, paragraph_id, note_id in every if (paragraph_id, note_id) in translated}
    assert 1 <= len(few) <= 2 < len(every)
    assert few[0].paragraph_id == paragraph("2.3", "example-c").pk  # the same sentence: the best match
    assert {t.id for t in few} <= every
    assert similar.entry_of(paragraph("2.4", "example-a"), "ja") is None  # not translated into Japanese
