import re

from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from . import languages, spans

KEY_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
NUMBER_PATTERN = r"^(?:[1-9][0-9]*\.[1-9][0-9]*|[A-Z])$"
# A paragraph's address in content/ and in citations: "2.3#example-c".
PARAGRAPH_ADDRESS = re.compile(r"(?P<number>[1-9][0-9]*\.[1-9][0-9]*|[A-Z])#(?P<key>[a-z0-9]+(?:-[a-z0-9]+)*)")

key_validator = RegexValidator(
    KEY_PATTERN,
    _("A paragraph key is lowercase letters and digits joined by hyphens, e.g. definition-2."),
)
number_validator = RegexValidator(NUMBER_PATTERN, _("A section number looks like 2.3, or A for an appendix."))


class Penalty(models.TextChoices):
    NO_PENALTY = "no-penalty", _("No Penalty")
    WARNING = "warning", _("Warning")
    GAME_LOSS = "game-loss", _("Game Loss")
    MATCH_LOSS = "match-loss", _("Match Loss")
    DISQUALIFICATION = "disqualification", _("Disqualification")


class Part(models.TextChoices):
    TEXT = "text", _("Text")
    DEFINITION = "definition", _("Definition")
    EXAMPLE = "example", _("Examples")
    PHILOSOPHY = "philosophy", _("Philosophy")
    ADDITIONAL_REMEDY = "additional-remedy", _("Additional Remedy")
    UPGRADE = "upgrade", _("Upgrade")
    DOWNGRADE = "downgrade", _("Downgrade")


class Chapter(models.Model):
    number = models.CharField(max_length=16, unique=True, verbose_name=_("number"))
    title = models.CharField(max_length=200, verbose_name=_("title"))
    order = models.PositiveIntegerField(verbose_name=_("order"))

    class Meta:
        verbose_name = _("chapter")
        verbose_name_plural = _("chapters")
        ordering = ["order"]

    def __str__(self):
        return f"{self.number} {self.title}"


class SectionQuerySet(models.QuerySet):
    def infractions(self):
        return self.exclude(penalty="")

    def with_text(self):
        return self.filter(paragraphs__isnull=False).distinct()

    def without_text(self):
        return self.filter(paragraphs__isnull=True)

    def in_reading_order(self):
        return self.order_by("order")


class Section(models.Model):
    number = models.CharField(max_length=16, unique=True, validators=[number_validator], verbose_name=_("number"))
    chapter = models.ForeignKey(Chapter, on_delete=models.PROTECT, related_name="sections", verbose_name=_("chapter"))
    title = models.CharField(max_length=200, verbose_name=_("title"))
    penalty = models.CharField(max_length=20, choices=Penalty.choices, blank=True, verbose_name=_("penalty"))
    order = models.PositiveIntegerField(verbose_name=_("order"))

    objects = SectionQuerySet.as_manager()

    class Meta:
        verbose_name = _("section")
        verbose_name_plural = _("sections")
        ordering = ["order"]

    def __str__(self):
        return f"{self.number} {self.title_en}"

    def get_absolute_url(self):
        from django.urls import reverse

        return reverse("ipg:section", kwargs={"number": self.number})

    def title_in(self, code):
        return languages.translated(self, "title", code)


class ParagraphQuerySet(models.QuerySet):
    def missing_in(self, code):
        field = languages.column("text", code)
        return self.filter(models.Q(**{f"{field}__isnull": True}) | models.Q(**{field: ""}))

    def translated_into(self, code):
        return self.exclude(pk__in=self.missing_in(code).values("pk"))

    def in_reading_order(self):
        return self.order_by("section__order", "order")


class Paragraph(models.Model):
    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="paragraphs", verbose_name=_("section"))
    key = models.CharField(max_length=64, validators=[key_validator], verbose_name=_("key"))
    part = models.CharField(max_length=20, choices=Part.choices, verbose_name=_("part"))
    order = models.PositiveIntegerField(verbose_name=_("order"))
    bullet = models.BooleanField(
        default=False, help_text=_("Shown as an item of a bulleted list."), verbose_name=_("bullet")
    )
    text = models.TextField(blank=True, verbose_name=_("text"))
    # Bumped whenever a text changes; an edit made from an older revision is checked for lost updates.
    revision = models.PositiveIntegerField(default=0, editable=False, verbose_name=_("revision"))

    objects = ParagraphQuerySet.as_manager()

    class Meta:
        verbose_name = _("paragraph")
        verbose_name_plural = _("paragraphs")
        ordering = ["section__order", "order"]
        constraints = [
            models.UniqueConstraint(fields=["section", "key"], name="unique_paragraph_key_per_section"),
        ]

    def __str__(self):
        return f"{self.section.number} #{self.key}"

    def get_absolute_url(self):
        return f"{self.section.get_absolute_url()}#{self.key}"

    def text_in(self, code):
        return languages.translated(self, "text", code)

    def languages(self):
        """The languages this paragraph has text in, in the site's order."""
        return [code for code in languages.CODES if self.text_in(code)]

    def clean(self):
        # Keys never change: an address that once led to a paragraph never leads to another one.
        if self.section_id and self.key:
            taken = FormerKey.objects.in_section(self.section_id).filter(key=self.key).exclude(paragraph_id=self.pk)
            if taken.exists():
                raise ValidationError(
                    {
                        "key": _("%(key)s was the key of another paragraph of this section, and still leads there.")
                        % {"key": self.key}
                    }
                )


class FormerKeyQuerySet(models.QuerySet):
    def in_section(self, section_id):
        return self.filter(paragraph__section_id=section_id)


class FormerKey(models.Model):
    """A key a paragraph had before it was renamed: its old addresses (`…/<key>/`, `#<key>`) still lead to it."""

    paragraph = models.ForeignKey(
        Paragraph, on_delete=models.CASCADE, related_name="former_keys", verbose_name=_("paragraph")
    )
    key = models.CharField(max_length=64, validators=[key_validator], verbose_name=_("key"))

    objects = FormerKeyQuerySet.as_manager()

    class Meta:
        verbose_name = _("former key")
        verbose_name_plural = _("former keys")
        ordering = ["paragraph", "pk"]
        constraints = [models.UniqueConstraint(fields=["paragraph", "key"], name="unique_former_key_per_paragraph")]

    def __str__(self):
        return f"{self.paragraph.section.number} #{self.key} → #{self.paragraph.key}"


def paragraph_at(section, key):
    """(paragraph, True) for the paragraph of `section` whose key is `key`; (paragraph, False) for the one that had
    it before a rename; (None, False) when no paragraph ever had it."""
    paragraph = section.paragraphs.filter(key=key).first()
    if paragraph is not None:
        return paragraph, True
    former = FormerKey.objects.in_section(section.pk).filter(key=key).select_related("paragraph").first()
    return (former.paragraph, False) if former else (None, False)


# The sources content/ names notes by, in English: pages show each in the page's language (`note_source`).
NOTE_SOURCES = [
    gettext_noop("Japanese annotated edition"),
    gettext_noop("Japanese edition, commentary box"),
]


class NoteQuerySet(models.QuerySet):
    def places(self):
        """{note: its place (1, 2, …) among its paragraph's notes}: how releases and content/ pair notes."""
        places, counts = {}, {}
        for note in self.order_by("order", "pk"):
            counts[note.paragraph_id] = counts.get(note.paragraph_id, 0) + 1
            places[note] = counts[note.paragraph_id]
        return places


class Note(models.Model):
    """Commentary on one paragraph, from an annotated edition; never part of the official text."""

    paragraph = models.ForeignKey(
        Paragraph, on_delete=models.CASCADE, related_name="notes", verbose_name=_("paragraph")
    )
    language = models.CharField(
        max_length=10,
        choices=languages.CHOICES,
        help_text=_("The language it was written in."),
        verbose_name=_("language"),
    )
    source = models.CharField(
        max_length=200,
        help_text=_("Where it comes from, e.g. the Japanese annotated edition."),
        verbose_name=_("source"),
    )
    order = models.PositiveIntegerField(verbose_name=_("order"))
    body = models.TextField(blank=True, verbose_name=_("body"))
    revision = models.PositiveIntegerField(default=0, editable=False, verbose_name=_("revision"))

    objects = NoteQuerySet.as_manager()

    class Meta:
        verbose_name = _("note")
        verbose_name_plural = _("notes")
        ordering = ["paragraph__section__order", "paragraph__order", "order"]

    def __str__(self):
        return f"Note {self.order} on {self.paragraph}"

    def body_in(self, code):
        return languages.translated(self, "body", code)

    def languages(self):
        return [code for code in languages.CODES if self.body_in(code)]


class Alias(models.Model):
    """Another name a section goes by in one language: a short name, an abbreviation, a former name."""

    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="aliases", verbose_name=_("section"))
    language = models.CharField(max_length=10, choices=languages.CHOICES, verbose_name=_("language"))
    name = models.CharField(max_length=200, verbose_name=_("name"))
    former = models.BooleanField(
        default=False, help_text=_("A name the section no longer goes by."), verbose_name=_("former")
    )

    class Meta:
        verbose_name = _("alias")
        verbose_name_plural = _("aliases")
        ordering = ["section__order", "language", "former", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["language", "name"], name="unique_alias_per_language"),
        ]

    def __str__(self):
        return f"{self.name} ({self.language}) → {self.section.number}"


class FoundQuerySet(models.QuerySet):
    def in_section(self, section_id):
        """Found in the section's paragraphs and in their notes."""
        return self.filter(paragraph__section_id=section_id)

    def in_text_of(self, paragraph):
        """Found in the paragraph's own text, not in its notes."""
        return self.filter(paragraph=paragraph, note__isnull=True)

    def in_note(self, note):
        return self.filter(note=note)

    def in_reading_order(self):
        return self.order_by("paragraph__section__order", "paragraph__order", "note__order", "language", "pk")

    def by_text(self):
        """{(paragraph id, note id or None, language): [rows, in the order they were found]}, as a page reads them
        (`reading.Text.place`), in one query."""
        found = {}
        for row in self.order_by("pk"):
            found.setdefault((row.paragraph_id, row.note_id, row.language), []).append(row)
        return found


class Found(models.Model):
    """Something found in one language of a paragraph's text or of a note on it: a cross-link's mention of a section,
    a term's occurrence. Each app that finds something keeps its own table of them (`derived` finds them again after
    each write).

    `text` and `nth` locate it: its words, and which occurrence of them it is in the linkable text of the rendered
    paragraph or note (`spans`), so that pages find it again in the text however the HTML of the day is written. Rows
    are created in reading order.
    """

    paragraph = models.ForeignKey(
        Paragraph, on_delete=models.CASCADE, related_name="%(class)ss", verbose_name=_("paragraph")
    )
    note = models.ForeignKey(
        Note, on_delete=models.CASCADE, null=True, blank=True, related_name="%(class)ss", verbose_name=_("note")
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

    objects = FoundQuerySet.as_manager()

    class Meta:
        abstract = True
        ordering = ["paragraph__section__order", "paragraph__order", "note__order", "language", "pk"]

    def __str__(self):
        return f"{self.paragraph} ({self.language}): {self.text!r}"
