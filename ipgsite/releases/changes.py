"""What each release changed, computed once, when the release is published or loaded, and stored.

The changes page then reads rows and runs no diff: a release never changes, so neither do its diffs. Each
release's rows are computed against the release before it; `basis` names both releases' frozen content, so
loading or publishing computes again only the releases whose own text or predecessor changed.
"""

import hashlib
import json

from django.db import transaction
from django.utils.html import escape

from ipgsite.ipg import languages

from .diffing import diff_html
from .snapshots import changes_between


def cell(old, new):
    """One language's side of a change, as the page shows it: its diff, or its text when it did not change."""
    if old == new:
        return {"unchanged": True, "html": str(escape(new)), "empty": not new}
    return {"unchanged": False, "html": str(diff_html(old, new)), "empty": False}


def _item(change):
    item = {
        "key": change.key,
        "note": change.note,
        "status": change.status,
        "moved": change.moved,
        "changed_in": change.changed_in(),
        "cells": {code: cell(change.text("old", code), change.text("new", code)) for code in languages.CODES},
    }
    current = change.current
    if change.note is None:
        item.update(
            part=current["part"], part_change=change.attribute("part"), bullet_change=change.attribute("bullet")
        )
    else:
        item.update(source=current["source"], language=current["language"])
    return item


def recorded(section_change):
    """A `snapshots.SectionChange` as it is stored: plain data, every diff already HTML."""
    titles = section_change.title_change
    return {
        "status": section_change.status,
        "title": section_change.current["title"],
        "title_cells": (
            {code: cell(titles[0].get(code, ""), titles[1].get(code, "")) for code in languages.CODES}
            if titles
            else None
        ),
        "penalty_change": section_change.penalty_change,
        "items": [_item(change) for change in section_change.changes],
    }


def _basis(previous, release, digests):
    named = [
        [r.date.isoformat(), sorted(digests.get(r.pk, []))] if r is not None else None for r in (previous, release)
    ]
    return hashlib.sha256(json.dumps(named).encode()).hexdigest()


@transaction.atomic
def record_changes(release_model=None, frozen_model=None, changed_model=None):
    """Compute and store the changes of every release whose frozen text, or whose predecessor's, is not what its
    rows were computed from. The models can be a migration's."""
    if release_model is None:
        from .models import ChangedSection, FrozenSection, Release

        release_model, frozen_model, changed_model = Release, FrozenSection, ChangedSection
    digests = {}
    for release_id, number, digest in frozen_model.objects.values_list("release_id", "number", "digest"):
        digests.setdefault(release_id, []).append((number, digest))
    previous = None
    for release in release_model.objects.order_by("date"):
        basis = _basis(previous, release, digests)
        if release.changes_basis != basis:
            changed_model.objects.filter(release=release).delete()
            changed_model.objects.bulk_create(
                changed_model(release=release, number=change.number, order=change.order, changes=recorded(change))
                for change in changes_between(previous, release)
            )
            release_model.objects.filter(pk=release.pk).update(changes_basis=basis)
        previous = release
