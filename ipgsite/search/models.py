from django.db import models
from django.utils.translation import gettext_lazy as _

from ipgsite.ipg import languages
from ipgsite.ipg.models import Note, Paragraph, Part, Section


class Kind(models.TextChoices):
    TEXT = "text", _("Official text")
    EXAMPLE = "example", _("Examples")
    NOTE = "note", _("Commentary")

    @classmethod
    def of(cls, paragraph, note=None):
        if note is not None:
            return cls.NOTE
        return cls.EXAMPLE if paragraph.part == Part.EXAMPLE else cls.TEXT


class Entry(models.Model):
    """One paragraph's text, or one note's body, in one language: searched as kept in memory (search/kept.py)."""

    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="+")
    paragraph = models.ForeignKey(Paragraph, on_delete=models.CASCADE, related_name="+")
    note = models.ForeignKey(Note, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    language = models.CharField(max_length=10, choices=languages.CHOICES)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    text = models.TextField(help_text=_("What a reader sees, as plain text."))
    folded = models.TextField(help_text=_("The text folded (NFKC, casefold): what queries match."))
    stems = models.TextField(
        blank=True, help_text=_("The English stems of its Latin-script words, for inflected queries.")
    )

    class Meta:
        verbose_name_plural = "entries"
        indexes = [models.Index(fields=["paragraph", "language"])]  # the note has the index of its foreign key

    def __str__(self):
        where = f"note {self.note_id} on " if self.note_id else ""
        return f"{where}{self.paragraph} ({self.language})"
