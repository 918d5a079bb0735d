"""Where each translation stands, and every change made to the text and the notes."""

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.db.models import Count, F, Q
from django.utils.translation import gettext_lazy as _

from ipgsite.ipg import languages
from ipgsite.ipg.models import Note, Paragraph

from . import registry


class Translator(models.Model):
    """A translator's own settings: the language the workspace speaks to them, whatever their browser asks for."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="translator", verbose_name=_("user")
    )
    interface_language = models.CharField(
        _("interface language"),
        max_length=10,
        choices=languages.CHOICES,
        blank=True,
        help_text=_("The language of the workspace's pages; empty: the language your browser asks for."),
    )

    class Meta:
        verbose_name = _("translator")
        verbose_name_plural = _("translators")

    def __str__(self):
        return str(self.user)


class State(models.IntegerChoices):
    """Ordered, so that `state__lt=State.TRANSLATED` reads "needs work"."""

    MISSING = 0, _("missing")
    OUTDATED = 1, _("outdated")
    TRANSLATED = 2, _("translated")
    REVIEWED = 3, _("reviewed")


class StatusQuerySet(models.QuerySet):
    def of_notes(self):
        return self.filter(note__isnull=False)

    def in_language(self, code):
        return self.filter(language=code)

    def in_section(self, section):
        return self.filter(paragraph__section=section)

    def of_paragraphs(self):
        return self.filter(paragraph__isnull=False)

    def of_model(self, model):
        """The statuses of a registered model's rows (a term's names, a finder question's wording)."""
        return self.filter(content_type=ContentType.objects.get_for_model(model))

    def of(self, obj):
        """The statuses of one row of a registered model, in every language."""
        return self.of_model(type(obj)).filter(object_id=obj.pk)

    def needing_work(self):
        return self.filter(state__lt=State.TRANSLATED)

    def outdated(self):
        return self.filter(state=State.OUTDATED)

    def in_reading_order(self):
        """Paragraph by paragraph, each paragraph's own text before its notes."""
        return self.order_by(
            "paragraph__section__order", "paragraph__order", F("note__order").asc(nulls_first=True), "note_id"
        )

    def counts_by_section_and_language(self):
        """{(section_id, language): {state: count}} in one query."""
        counts = {}
        rows = self.values("paragraph__section_id", "language").annotate(
            **{state.name.lower(): Count("pk", filter=Q(state=state)) for state in State}
        )
        for row in rows:
            counts[row["paragraph__section_id"], row["language"]] = {state: row[state.name.lower()] for state in State}
        return counts


class ParagraphStatuses(models.Manager.from_queryset(StatusQuerySet)):
    """Statuses of paragraphs' own text (and so `paragraph.statuses`) and of other registered rows' (a term's
    names); a note's are `Status.of_notes`. `of_paragraphs()` and `of_model(Term)` narrow them to one kind."""

    def get_queryset(self):
        return super().get_queryset().filter(note__isnull=True)


class NoteStatuses(models.Manager.from_queryset(StatusQuerySet)):
    def get_queryset(self):
        return super().get_queryset().filter(note__isnull=False)


class Status(models.Model):
    """One paragraph, or one note on it, in one language. A paragraph's source is English, never outdated; a note's
    source is the language it was written in.

    A translation is outdated while the source differs from `confirmed_source`, the source text it was
    last confirmed against (by saving the translation, confirming it, or a minor English edit).
    """

    paragraph = models.ForeignKey(
        Paragraph, on_delete=models.CASCADE, null=True, blank=True, related_name="statuses", verbose_name=_("paragraph")
    )
    note = models.ForeignKey(
        Note, null=True, blank=True, on_delete=models.CASCADE, related_name="statuses", verbose_name=_("note")
    )
    # Or a row of another model the write path writes (`registry`): a term's names, a finder question's wording.
    content_type = models.ForeignKey(
        ContentType, on_delete=models.CASCADE, null=True, blank=True, related_name="+", verbose_name=_("of")
    )
    object_id = models.PositiveIntegerField(_("object id"), null=True, blank=True)
    target = GenericForeignKey("content_type", "object_id")
    language = models.CharField(_("language"), max_length=10, choices=languages.CHOICES)
    state = models.PositiveSmallIntegerField(_("status"), choices=State.choices, default=State.MISSING)
    confirmed_source = models.TextField(
        _("confirmed source"), blank=True, help_text=_("The English this translation was last confirmed against.")
    )
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("confirmed by"),
    )
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("reviewed by"),
    )
    reviewed_at = models.DateTimeField(_("reviewed at"), null=True, blank=True)
    # Why a paragraph's or note's translation has the status it has, where someone had to decide (a close call):
    # content/ keeps it as comments in the paragraph or note, "# ja: …".
    remark = models.TextField(_("remark"), blank=True)

    objects = ParagraphStatuses()
    of_notes = NoteStatuses()
    everything = StatusQuerySet.as_manager()

    class Meta:
        verbose_name = _("status")
        verbose_name_plural = _("statuses")
        constraints = [
            models.UniqueConstraint(
                fields=["paragraph", "language"],
                condition=Q(note__isnull=True),
                name="one_status_per_paragraph_language",
            ),
            models.UniqueConstraint(
                fields=["note", "language"], condition=Q(note__isnull=False), name="one_status_per_note_language"
            ),
            models.UniqueConstraint(
                fields=["content_type", "object_id", "language"],
                condition=Q(content_type__isnull=False),
                name="one_status_per_object_language",
            ),
            models.CheckConstraint(
                condition=Q(paragraph__isnull=False, content_type__isnull=True, object_id__isnull=True)
                | Q(paragraph__isnull=True, content_type__isnull=False, object_id__isnull=False),
                name="status_of_a_paragraph_or_another_object",
            ),
        ]
        permissions = [
            ("translate_en", "Can edit the English text and notes"),
            ("translate_zh_hans", "Can edit the Simplified Chinese text and notes"),
            ("translate_ja", "Can edit the Japanese text and notes"),
            ("edit_structure", "Can edit keys, parts, order, sections and aliases"),
        ]

    def __str__(self):
        if self.content_type_id:
            return f"{self.target} [{self.language}]: {self.get_state_display()}"
        of = f"note {self.note_id} on {self.paragraph}" if self.note_id else str(self.paragraph)
        return f"{of} [{self.language}]: {self.get_state_display()}"

    @property
    def is_source(self):
        return self.language == (self.note.language if self.note_id else languages.CODES[0])


class ChangeQuerySet(models.QuerySet):
    def of_paragraph(self, paragraph):
        """Changes to the paragraph's text and to its notes, newest first."""
        return self.filter(paragraph=paragraph).order_by("-at", "-pk")

    def of_text(self, obj, code, field=None):
        """The changes to one text in one language: a paragraph's, a note's, or a registered row's `field` (by
        default the one its writes name)."""
        field = field or registry.written(obj).default_field
        if isinstance(obj, Note):
            target = {"note": obj}
        elif isinstance(obj, Paragraph):
            target = {"paragraph": obj, "note__isnull": True}
        else:
            target = {"content_type": ContentType.objects.get_for_model(obj), "object_id": obj.pk}
        return self.filter(field=field, language=code, **target)

    def of(self, obj):
        """A registered row's changes (a term's, a finder question's), newest first."""
        ct = ContentType.objects.get_for_model(obj)
        return self.filter(content_type=ct, object_id=obj.pk).order_by("-at", "-pk")

    def after_revision(self, revision):
        return self.filter(revision__gt=revision)


class Change(models.Model):
    """One language's text of a paragraph or note (or a term's name or forms) before and after one save; or a note
    added or deleted."""

    class Action(models.TextChoices):
        EDIT = "edit", _("edited")
        ADD = "add", _("note added")
        DELETE = "delete", _("note deleted")

    paragraph = models.ForeignKey(
        Paragraph, on_delete=models.CASCADE, null=True, blank=True, related_name="changes", verbose_name=_("paragraph")
    )
    # Or a row of another model the write path writes (`registry`): a term, a finder question.
    content_type = models.ForeignKey(
        ContentType, on_delete=models.CASCADE, null=True, blank=True, related_name="+", verbose_name=_("of")
    )
    object_id = models.PositiveIntegerField(_("object id"), null=True, blank=True)
    target = GenericForeignKey("content_type", "object_id")
    note = models.ForeignKey(
        Note, null=True, blank=True, on_delete=models.SET_NULL, related_name="changes", verbose_name=_("note")
    )
    action = models.CharField(_("action"), max_length=10, choices=Action.choices, default=Action.EDIT)
    # The changed text: "text" (a paragraph's), "body" (a note's), or a registered model's field ("name", "answers").
    field = models.CharField(_("field"), max_length=20)
    language = models.CharField(_("language"), max_length=10, choices=languages.CHOICES, blank=True)
    before = models.TextField(_("before"), blank=True)
    after = models.TextField(_("after"), blank=True)
    # For a note added or deleted: what it takes to delete or recreate it.
    note_data = models.JSONField(_("note data"), default=dict, blank=True)
    revision = models.PositiveIntegerField(
        _("revision"), help_text=_("The paragraph's, note's, term's or question's revision after this change.")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("user"),
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)
    minor = models.BooleanField(
        _("minor"), default=False, help_text=_("An English edit that does not outdate translations.")
    )
    reverts = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="reverted_by",
        verbose_name=_("reverts"),
    )

    objects = ChangeQuerySet.as_manager()

    class Meta:
        verbose_name = _("change")
        verbose_name_plural = _("changes")
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["paragraph", "field", "language", "revision"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(paragraph__isnull=False, content_type__isnull=True, object_id__isnull=True)
                | Q(paragraph__isnull=True, content_type__isnull=False, object_id__isnull=False),
                name="change_of_a_paragraph_or_another_object",
            ),
        ]

    def __str__(self):
        target = self.paragraph or self.target
        return f"{target} {self.field} [{self.language}] {self.get_action_display()} r{self.revision}"

    @property
    def field_label(self):
        """The changed text's name, as its model names it in the interface language ("text", "note", "name")."""
        if self.content_type_id:
            model = self.content_type.model_class()
        else:
            model = Note if self.note_id or self.field == "body" else Paragraph
        try:
            return model._meta.get_field(self.field).verbose_name
        except FieldDoesNotExist:  # a field a later version of its model renamed: its stored name
            return self.field

    @property
    def who(self):
        return self.user.get_username() if self.user else _("content files")


class CheckpointQuerySet(models.QuerySet):
    def last_one(self):
        return self.order_by("-at", "-pk").first()


class Checkpoint(models.Model):
    """The last time the content was what its files say: a load of content files, or an export to them.

    `files` is the content as the files would hold it then ({name: text}); `last_change` the newest change in the
    history then. An edit made since makes the content differ from `files` (`editing.since`). Only the last is kept.
    """

    class Action(models.TextChoices):
        LOAD = "load", _("loaded")
        EXPORT = "export", _("exported")

    at = models.DateTimeField(_("at"), auto_now_add=True)
    action = models.CharField(_("action"), max_length=10, choices=Action.choices)
    directory = models.CharField(_("directory"), max_length=500)
    files = models.JSONField(_("files"), default=dict)
    last_change = models.PositiveBigIntegerField(_("last change"), default=0)

    objects = CheckpointQuerySet.as_manager()

    class Meta:
        verbose_name = _("load or export")
        verbose_name_plural = _("loads and exports")

    def __str__(self):
        return f"{self.action} {self.directory} at {self.at:%Y-%m-%d %H:%M}"


class WriteLock(models.Model):
    """The one row every batch of writes locks before anything else (`writing.hold_the_write_lock`), so that two
    batches at once wait for each other rather than deadlock. It holds nothing."""

    ONE = 1

    class Meta:
        verbose_name = _("write lock")
        verbose_name_plural = _("write lock")

    def __str__(self):
        return str(self._meta.verbose_name)
