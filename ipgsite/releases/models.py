import datetime
import hashlib
import json
import re

from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ipgsite.ipg import languages


class ReleaseQuerySet(models.QuerySet):
    def newest_first(self):
        return self.order_by("-date")

    def in_effect(self, today=None):
        """Releases whose effective date has come; a release published ahead of its date is not public yet."""
        return self.filter(date__lte=today or timezone.localdate())

    def before(self, release):
        return self.filter(date__lt=release.date)


class Release(models.Model):
    """An IPG version, named by its effective date, with every section frozen as it was published."""

    date = models.DateField(
        unique=True, help_text=_("The date this version of the IPG takes effect."), verbose_name=_("date")
    )
    title = models.CharField(max_length=200, blank=True, verbose_name=_("title"))
    announcement = models.URLField(
        blank=True, help_text=_("The page announcing this release."), verbose_name=_("announcement")
    )
    # What its changes (`ChangedSection`) were computed from: this release's and the one before's frozen text.
    changes_basis = models.CharField(max_length=64, blank=True, editable=False)

    objects = ReleaseQuerySet.as_manager()

    class Meta:
        verbose_name = _("release")
        verbose_name_plural = _("releases")
        ordering = ["-date"]

    def __str__(self):
        return self.date.isoformat()

    def get_absolute_url(self):
        return reverse("releases:release", kwargs={"date": self.date.isoformat()})

    def title_in(self, code):
        return languages.translated(self, "title", code)

    def previous(self):
        return Release.objects.before(self).newest_first().first()


class FrozenSection(models.Model):
    """A section as a release froze it: its title, penalty, paragraphs and their notes, as plain data.

    `content` is {"title": {code: text}, "penalty": str, "paragraphs": [{"key", "part", "bullet",
    "texts": {code: text}, "notes": [{"language", "source", "bodies": {code: text}}]}]}, paragraphs in
    reading order, each paragraph's notes in order.
    """

    release = models.ForeignKey(Release, on_delete=models.CASCADE, related_name="sections", verbose_name=_("release"))
    number = models.CharField(max_length=16, verbose_name=_("number"))
    order = models.PositiveIntegerField(verbose_name=_("order"))
    content = models.JSONField(verbose_name=_("content"))
    # A hash of `content`: which sections two releases differ in, without reading their text.
    digest = models.CharField(max_length=64, verbose_name=_("digest"))

    class Meta:
        verbose_name = _("frozen section")
        verbose_name_plural = _("frozen sections")
        ordering = ["release", "order"]
        constraints = [
            models.UniqueConstraint(fields=["release", "number"], name="unique_frozen_section_per_release"),
        ]

    def __str__(self):
        return f"{self.number} in {self.release}"


class ChangedSection(models.Model):
    """What a release changed in one section since the release before, as the changes page shows it, computed
    once when the release was published or loaded (`releases.changes`): plain data, every diff already HTML.

    `changes` is {"status", "title": {code: text}, "title_cells": {code: cell} or None, "penalty_change": [old, new]
    or None, "items": [{"key", "note", "status", "moved", "changed_in", "cells": {code: cell}, and "part",
    "part_change", "bullet_change" for a paragraph, "source", "language" for a note}]}; a cell is {"unchanged",
    "html", "empty"}.
    """

    release = models.ForeignKey(
        Release, on_delete=models.CASCADE, related_name="changed_sections", verbose_name=_("release")
    )
    number = models.CharField(max_length=16, verbose_name=_("number"))
    order = models.PositiveIntegerField(verbose_name=_("order"))
    changes = models.JSONField(verbose_name=_("changes"))

    class Meta:
        verbose_name = _("changed section")
        verbose_name_plural = _("changed sections")
        ordering = ["release", "order", "number"]
        constraints = [
            models.UniqueConstraint(fields=["release", "number"], name="unique_changed_section_per_release"),
        ]

    def __str__(self):
        return f"{self.number} in {self.release}"


def digest(content):
    canonical = json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def parse_date(value):
    """A release date from a URL or a file: exactly YYYY-MM-DD, or None."""
    if not isinstance(value, str) or not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", value):
        return None
    try:
        return datetime.date.fromisoformat(value)
    except ValueError:
        return None


class Comparison(models.Model):
    """What changed from one release to a later one that is not the next, as the changes page shows it: computed
    the first time a reader asks for the pair (`releases.comparisons`) and kept, since a release never changes.

    `sections` is [{"number", "order", "changes"}], each `changes` as a `ChangedSection`'s; `basis` names both
    releases' frozen content, so a release replaced since (`loadcontent --replace-release`) is compared again.
    """

    older = models.ForeignKey(Release, on_delete=models.CASCADE, related_name="+", verbose_name=_("from"))
    newer = models.ForeignKey(Release, on_delete=models.CASCADE, related_name="+", verbose_name=_("to"))
    basis = models.CharField(max_length=64, editable=False)
    sections = models.JSONField(verbose_name=_("changes"))
    computed_at = models.DateTimeField(auto_now=True, verbose_name=_("computed at"))

    class Meta:
        verbose_name = _("comparison of two releases")
        verbose_name_plural = _("comparisons of two releases")
        ordering = ["-computed_at"]
        constraints = [models.UniqueConstraint(fields=["older", "newer"], name="one_comparison_per_pair")]

    def __str__(self):
        return f"{self.older} → {self.newer}"
