from django.db import models
from django.utils.translation import gettext_lazy as _

from ipgsite.ipg.models import Found, FoundQuerySet, Section


class LinkQuerySet(FoundQuerySet):
    def pointing_to(self, section):
        return self.filter(section=section)


class Link(Found):
    """A mention, in one language of a paragraph or of a note on it, of an IPG section or of a section of the MTR
    (where it is: `Found`)."""

    section = models.ForeignKey(
        Section,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="mentions",
        help_text=_("The IPG section mentioned."),
        verbose_name=_("section"),
    )
    mtr = models.CharField(
        max_length=20,
        blank=True,
        help_text=_("The Magic Tournament Rules section mentioned, e.g. 4.3."),
        verbose_name=_("MTR section"),
    )

    objects = LinkQuerySet.as_manager()

    class Meta(Found.Meta):
        verbose_name = _("cross-link")
        verbose_name_plural = _("cross-links")
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(section__isnull=False, mtr="") | models.Q(section__isnull=True) & ~models.Q(mtr="")
                ),
                name="link_points_to_ipg_or_mtr",
            ),
        ]

    def __str__(self):
        target = f"MTR {self.mtr}" if self.mtr else f"IPG {self.section.number}"
        return f"{super().__str__()} → {target}"
