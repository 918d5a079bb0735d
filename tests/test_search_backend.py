"""The search backend is named by a setting (SEARCH_BACKEND), loaded by its dotted path as Django loads cache and
database backends: by default the one that follows the database; the plain scan answers the same; a path that names
no backend, or a backend for another database, is refused with a clear error, by `manage.py check` and at the first
search."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.checks import run_checks
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext

from edits import write
from ipgsite.search import backends, similar
from ipgsite.search.finding import find
from ipgsite.search.query import Query
from ipgsite.workspace import memory
from people import paragraph

pytestmark = pytest.mark.database  # search: each database has a backend of its own (ipgsite/search/backends.py)

ROOT = Path(__file__).resolve().parent.parent
LIKE_SCAN = "ipgsite.search.backends.LikeScan"
OWN_BACKEND = {"sqlite": backends.SQLiteSearch, "postgresql": backends.PostgresSearch}
# What only the indexes' queries say: the FTS5 tables on SQLite; the tsvectors and the planner's settings on PostgreSQL.
INDEX_SQL = ("search_entry_trigrams", "search_entry_grams", "@@", "SET LOCAL")
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


def test_the_default_backend_keeps_the_entries_and_asks_the_database_for_translation_memory(settings):
    assert settings.SEARCH_BACKEND == "ipgsite.search.backends.Auto"
    assert type(backends.backend()) is backends.KeptSearch
    assert type(backends.backend().database) is OWN_BACKEND[connection.vendor]
    assert type(backends.backend(by_like=True)) is backends.LikeScan


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
        ("黑暗親信", ()),  # traditional characters
        ("of library", ()),  # two Latin letters: compared on every entry by every backend
        ("mulligna", ()),  # a near miss: "Did you mean"
        ("eight cards in opening hand", ()),  # partial matches
        ("先手抓牌", ()),  # a CJK phrase split into parts
        ("手札が多すぎる", ()),
    ],
)
@pytest.mark.parametrize("indexes", ["Auto", "database"])
def test_the_plain_scan_named_by_the_setting_answers_as_the_indexes_do(ipg, q, languages, indexes):
    """As the entries kept in memory answer (the default), and as the database's own indexes do."""
    query = Query.parse(q, languages)
    name = indexes if indexes == "Auto" else OWN_BACKEND[connection.vendor].__name__
    with override_settings(SEARCH_BACKEND=f"ipgsite.search.backends.{name}"):
        by_indexes = outcome(query)
    assert by_indexes[0] > 0 or by_indexes[3]
    with override_settings(SEARCH_BACKEND=LIKE_SCAN), CaptureQueriesContext(connection) as queries:
        assert type(backends.backend()) is backends.LikeScan
        by_scan = outcome(query)
    assert by_scan == by_indexes
    asked = [entry["sql"] for entry in queries.captured_queries]
    assert any("search_entry" in sql for sql in asked)
    assert not [sql for sql in asked if any(index in sql for index in INDEX_SQL)]


def test_the_search_page_is_the_same_through_the_plain_scan(client, ipg):
    url = "/ja/search/?q=player+forgot+to+reveal+card&language=en&language=ja"
    by_indexes = client.get(url)
    with override_settings(SEARCH_BACKEND=LIKE_SCAN):
        by_scan = client.get(url)
    assert by_indexes.status_code == by_scan.status_code == 200
    assert "2.3/#example-c" in by_scan.content.decode()
    assert by_scan.content == by_indexes.content


def test_translation_memory_through_the_plain_scan_compares_every_translated_text(ipg):
    write("2.4", "example-a", "en", DARK_CONFIDANT)
    write("2.4", "example-b", "en", DARK_CONFIDANT.replace("their hand", "her hand"))
    found = {}
    for key in ("example-a", "example-b", "example-c", "definition-1"):
        p = paragraph("2.4", key)
        by_index = [(s.obj, round(s.similarity, 6), s.translation) for s in memory.suggest(p, "en", "ja")]
        with override_settings(SEARCH_BACKEND=LIKE_SCAN), CaptureQueriesContext(connection) as queries:
            by_scan = [(s.obj, round(s.similarity, 6), s.translation) for s in memory.suggest(p, "en", "ja")]
        assert by_scan == [(s.obj, round(s.similarity, 6), s.translation) for s in memory.python_scan(p, "en", "ja")]
        assert by_scan[:1] == by_index[:1]
        assert not [q["sql"] for q in queries.captured_queries if any(index in q["sql"] for index in INDEX_SQL)]
        found[key] = by_scan
    assert found["example-a"][0][:2] == (paragraph("2.3", "example-c"), 1.0)  # the same sentence: an exact match
    assert found["example-b"][0][0] == paragraph("2.3", "example-c") and found["example-b"][0][1] < 1


def test_memory_asks_the_index_for_a_few_candidates_and_the_scan_for_every_one(ipg):
    write("2.4", "example-a", "en", DARK_CONFIDANT)
    entry = similar.entry_of(paragraph("2.4", "example-a"), "en")
    assert entry.text == DARK_CONFIDANT and entry.language == "en" and entry.note_id is None
    few = similar.candidates(entry, "ja", limit=2, wanted=1)
    every = similar.candidates(entry, "ja", limit=2, wanted=1, by_like=True)
    assert 1 <= len(few) <= 2 < len(every)
    assert few[0].paragraph_id == paragraph("2.3", "example-c").pk  # the same sentence: the index's best match
    assert {t.id for t in few} <= {t.id for t in every}
    assert entry.id not in {t.id for t in every}
    assert {t.language for t in every} == {"en"}
    assert similar.entry_of(paragraph("2.4", "example-a"), "ja") is None  # not translated into Japanese


UNKNOWN = "ipgsite.search.backends.NoSuchBackend"


@pytest.mark.parametrize(
    "path, says",
    [
        (UNKNOWN, "cannot be imported"),
        ("no_such_module.Backend", "cannot be imported"),
        ("not a dotted path", "cannot be imported"),
        ("ipgsite.search.models.Entry", "is not a search backend"),
        ("ipgsite.search.backends.Ranking", "is not a search backend"),
        ("ipgsite.search.backends.backend", "is not a search backend"),  # a function, not a class
    ],
)
def test_a_path_that_names_no_backend_is_refused_by_the_checks_and_by_search(db, path, says):
    with override_settings(SEARCH_BACKEND=path):
        errors = [e for e in run_checks(tags=["search"]) if e.id.startswith("search.")]
        assert [e.id for e in errors] == ["search.E001"]
        assert path in errors[0].msg and says in errors[0].msg and "ipgsite.search.backends.Auto" in errors[0].msg
        assert errors[0].obj == "SEARCH_BACKEND"
        with pytest.raises(ImproperlyConfigured, match=says) as raised:
            find(Query.parse("card"), "en")
        assert path in str(raised.value)


def test_a_backend_for_another_database_is_refused():
    other = {"sqlite": "PostgresSearch", "postgresql": "SQLiteSearch"}[connection.vendor]
    with override_settings(SEARCH_BACKEND=f"ipgsite.search.backends.{other}"):
        errors = [e for e in run_checks(tags=["search"]) if e.id.startswith("search.")]
        assert [e.id for e in errors] == ["search.E002"]
        assert f"the database is {connection.vendor}" in errors[0].msg
        with pytest.raises(ImproperlyConfigured, match="LikeScan"):
            backends.backend()


@pytest.mark.parametrize("name", ["Auto", "LikeScan", {"sqlite": "SQLiteSearch", "postgresql": "PostgresSearch"}])
def test_every_backend_that_fits_the_database_passes_the_checks(name):
    name = name if isinstance(name, str) else name[connection.vendor]
    with override_settings(SEARCH_BACKEND=f"ipgsite.search.backends.{name}"):
        assert [e for e in run_checks(tags=["search"]) if e.id.startswith("search.")] == []


def test_the_setting_comes_from_the_environment_and_manage_py_check_refuses_a_wrong_one():
    env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/"), "DEBUG": "1", "SEARCH_BACKEND": UNKNOWN}
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode != 0
    assert "search.E001" in result.stderr and UNKNOWN in result.stderr
    assert "Traceback" not in result.stderr, result.stderr
