from django.db import models
from django.utils.translation import gettext_lazy as _

from ipgsite.ipg import languages, spans
from ipgsite.ipg.models import Note, Paragraph, Section


class LinkQuerySet(models.QuerySet):
    def pointing_to(self, section):
        return self.filter(section=section)

    def in_text_of(self, paragraph):
        """Mentions in the paragraph's own text, not in its notes."""
        return self.filter(paragraph=paragraph, note__isnull=True)

    def in_note(self, note):
        return self.filter(note=note)

    def in_reading_order(self):
        return self.order_by("paragraph__section__order", "paragraph__order", "note__order", "language", "pk")


class Link(models.Model):
    """A mention, in one language of a paragraph or of a note on it, of an IPG section or of a section of the MTR.

    `text` and `nth` locate the mention: its words, and which occurrence of them it is in the linkable text of the
    rendered paragraph or note (`ipgsite.ipg.spans`), so that pages can turn exactly the stored mentions into links,
    however the HTML of the day is written. Rows are created in reading order.
    """

    paragraph = models.ForeignKey(
        Paragraph, on_delete=models.CASCADE, related_name="links", verbose_name=_("paragraph")
    )
    note = models.ForeignKey(
        Note, on_delete=models.CASCADE, null=True, blank=True, related_name="links", verbose_name=_("note")
    )
    language = models.CharField(max_length=10, choices=languages.CHOICES, verbose_name=_("language"))
    text = models.CharField(
        max_length=spans.MAX_WORDS,
        help_text=_("The words of the mention, as the text has them."),
        verbose_name=_("text"),
    )
    nth = models.PositiveIntegerField(
        help_text=_("Which occurrence of these words in the text it is, outside links and code: 0 for the first."),
        verbose_name=_("occurrence of the words"),
    )
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

    class Meta:
        verbose_name = _("cross-link")
        verbose_name_plural = _("cross-links")
        ordering = ["paragraph__section__order", "paragraph__order", "note__order", "language", "pk"]
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
        return f"{self.paragraph} ({self.language}): {self.text!r} → {target}"
