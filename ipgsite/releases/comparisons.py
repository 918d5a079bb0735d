"""What changed between any two releases, section by section, with the diffs the changes page shows.

Two neighbours need nothing new: the later one's changes were stored when it was published (`releases.changes`).
Any other pair is computed the first time a reader asks for it, with the same bounded diffs, and kept
(`Comparison`); a release never changes, so neither does the comparison, unless a release is replaced on purpose
(its `basis` then differs and the pair is computed again). Only releases in effect can be asked for, so the kept
pairs are at most n(n-1)/2 for n releases, and at most KEPT of them are kept: the least recently computed go first.
"""

import hashlib
import json
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.http import HttpResponsePermanentRedirect
from django.utils.translation import gettext as _

from .changes import recorded
from .models import Comparison, FrozenSection, parse_date
from .reading import release_named
from .snapshots import changes_between

KEPT = 100


@dataclass
class Compared:
    """One changed section, read like a `ChangedSection` row."""

    number: str
    order: int
    changes: dict
    release: object = None  # the newer release: the one whose lag marks an English-only change shows


def basis(older, newer):
    """A name for both releases' frozen content: what a kept comparison was computed from."""
    digests = {}
    rows = FrozenSection.objects.filter(release__in=[older, newer]).values_list("release_id", "number", "digest")
    for release_id, number, digest in rows:
        digests.setdefault(release_id, []).append((number, digest))
    named = [[r.date.isoformat(), sorted(digests.get(r.pk, []))] for r in (older, newer)]
    return hashlib.sha256(json.dumps(named).encode()).hexdigest()


def compared_sections(older, newer):
    """[Compared] of every section that changed from release `older` to the later release `newer`, in reading order:
    stored when `older` is the one before `newer`, else kept from the first time the pair was asked for."""
    if newer.previous() == older:
        return [Compared(c.number, c.order, c.changes, newer) for c in newer.changed_sections.all()]
    computed_from = basis(older, newer)
    kept = Comparison.objects.filter(older=older, newer=newer).first()
    if kept is not None and kept.basis == computed_from:
        return [Compared(**section, release=newer) for section in kept.sections]
    sections = [
        {"number": change.number, "order": change.order, "changes": recorded(change)}
        for change in changes_between(older, newer)
    ]
    _keep(older, newer, computed_from, sections)
    return [Compared(**section, release=newer) for section in sections]


def _keep(older, newer, computed_from, sections):
    try:
        with transaction.atomic():
            Comparison.objects.update_or_create(
                older=older, newer=newer, defaults={"basis": computed_from, "sections": sections}
            )
    except IntegrityError:  # another request kept the same pair meanwhile: theirs is as good
        return
    stale = Comparison.objects.order_by("-computed_at").values_list("pk", flat=True)[KEPT:]
    Comparison.objects.filter(pk__in=list(stale)).delete()


# The pair a request names


class BadComparison(Exception):
    """A comparison asked for with missing, malformed or equal dates: a 400 saying why."""


def releases_compared(request):
    """(older, newer, None) of the releases `?from=` and `?to=` name; (…, redirect) when they are named newest first.
    BadComparison for dates missing, malformed or equal; Http404 for a date no release in effect has."""
    given = {name: request.GET.get(name, "") for name in ("from", "to")}
    if not all(given.values()):
        raise BadComparison(_("Choose the two releases to compare: from one date to another."))
    for value in given.values():
        if parse_date(value) is None:
            raise BadComparison(_("%(value)s is not a date written as YYYY-MM-DD.") % {"value": value[:40]})
    older, newer = release_named(given["from"]), release_named(given["to"])
    if older == newer:
        raise BadComparison(_("Choose two different releases to compare."))
    if older.date > newer.date:
        query = request.GET.copy()
        query["from"], query["to"] = given["to"], given["from"]
        return newer, older, HttpResponsePermanentRedirect(f"{request.path}?{query.urlencode(safe=',')}")
    return older, newer, None
