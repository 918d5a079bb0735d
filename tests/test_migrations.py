"""Migrations keep what is stored: a database migrated from the state before a migration to the latest holds the same
rows. Each test migrates back, then forward, with Django's `MigrationExecutor` (it commits: run on each database)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from ipgsite.crosslinks.models import Link
from ipgsite.terms.models import Occurrence

pytestmark = pytest.mark.django_db(transaction=True)


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor


def rows(model, *extra):
    return list(model.objects.order_by("pk").values_list("pk", "paragraph", "note", "language", "text", "nth", *extra))


def test_cross_links_and_term_occurrences_keep_their_rows_as_found_in_text(ipg):
    """Links and occurrences became `Found` (crosslinks and terms 0005): the same rows before and after."""
    links, occurrences = rows(Link, "section", "mtr"), rows(Occurrence, "term")
    assert len(links) > 20 and len(occurrences) > 100  # content/'s, found when the session loaded it
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    before = [
        ("crosslinks", "0004_link_stored_as_words_not_offsets"),
        ("terms", "0004_occurrence_stored_as_words_not_offsets"),
    ]
    old = migrate(before).loader.project_state(before).apps
    assert rows(old.get_model("crosslinks", "Link"), "section", "mtr") == links
    assert rows(old.get_model("terms", "Occurrence"), "term") == occurrences
    migrate(latest)
    assert rows(Link, "section", "mtr") == links
    assert rows(Occurrence, "term") == occurrences
