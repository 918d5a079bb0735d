"""Where each translation stands, and every change made to the text and the notes."""

from django.conf import settings
from django.db import models
from django.db.models import Count, Q
from django.utils.translation import gettext_lazy as _

from ipgsite.finder.models import Question
from ipgsite.ipg import languages
from ipgsite.ipg.models import Note, Paragraph
from ipgsite.terms.models import Term


class State(models.IntegerChoices):
    """Ordered, so that `state__lt=State.TRANSLATED` reads "needs work"."""

    MISSING = 0, _("missing")
    OUTDATED = 1, _("outdated")
    TRANSLATED = 2, _("translated")
    REVIEWED = 3, _("reviewed")


class StatusQuerySet(models.QuerySet):
    def in_language(self, code):
        return self.filter(language=code)

    def in_section(self, section):
        return self.filter(paragraph__section=section)

    def of_paragraphs(self):
        return self.filter(paragraph__isnull=False)

    def of_terms(self):
        return self.filter(term__isnull=False)

    def of_questions(self):
        return self.filter(question__isnull=False)

    def needing_work(self):
        return self.filter(state__lt=State.TRANSLATED)

    def outdated(self):
        return self.filter(state=State.OUTDATED)

    def in_reading_order(self):
        return self.order_by("paragraph__section__order", "paragraph__order")

    def counts_by_section_and_language(self):
        """{(section_id, language): {state: count}} in one query."""
        counts = {}
        rows = self.values("paragraph__section_id", "language").annotate(
            **{state.name.lower(): Count("pk", filter=Q(state=state)) for state in State}
        )
        for row in rows:
            counts[row["paragraph__section_id"], row["language"]] = {state: row[state.name.lower()] for state in State}
        return counts


class Status(models.Model):
    """One paragraph in one language. English is the source: it is never outdated.

    A translation is outdated while the English differs from `confirmed_source`, the English it was
    last confirmed against (by saving the translation, confirming it, or a minor English edit).
    """

    paragraph = models.ForeignKey(Paragraph, on_delete=models.CASCADE, null=True, blank=True, related_name="statuses")
    # Or a term's name in one language: a status has one target, a paragraph or a term.
    term = models.ForeignKey(Term, on_delete=models.CASCADE, null=True, blank=True, related_name="statuses")
    # Or a finder question's wording (its text and answers) in one language.
    question = models.ForeignKey(Question, on_delete=models.CASCADE, null=True, blank=True, related_name="statuses")
    language = models.CharField(max_length=10, choices=languages.CHOICES)
    state = models.PositiveSmallIntegerField(choices=State.choices, default=State.MISSING)
    confirmed_source = models.TextField(
        blank=True, help_text=_("The English this translation was last confirmed against.")
    )
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reviewed_at = models.DateTimeField(null=True, blank=True)

    objects = StatusQuerySet.as_manager()

    class Meta:
        verbose_name_plural = "statuses"
        constraints = [
            models.UniqueConstraint(fields=["paragraph", "language"], name="one_status_per_paragraph_language"),
            models.UniqueConstraint(
                fields=["term", "language"], condition=Q(term__isnull=False), name="one_status_per_term_language"
            ),
            models.UniqueConstraint(
                fields=["question", "language"],
                condition=Q(question__isnull=False),
                name="one_status_per_question_language",
            ),
            models.CheckConstraint(
                condition=Q(paragraph__isnull=False, term__isnull=True, question__isnull=True)
                | Q(paragraph__isnull=True, term__isnull=False, question__isnull=True)
                | Q(paragraph__isnull=True, term__isnull=True, question__isnull=False),
                name="status_of_a_paragraph_a_term_or_a_question",
            ),
        ]
        permissions = [
            ("translate_en", "Can edit the English text and notes"),
            ("translate_zh_hans", "Can edit the Simplified Chinese text and notes"),
            ("translate_ja", "Can edit the Japanese text and notes"),
            ("edit_structure", "Can edit keys, parts, order, sections and aliases"),
        ]

    def __str__(self):
        return f"{self.paragraph or self.term or self.question} [{self.language}]: {self.get_state_display()}"

    @property
    def is_source(self):
        return self.language == languages.CODES[0]


class ChangeQuerySet(models.QuerySet):
    def of_paragraph(self, paragraph):
        """Changes to the paragraph's text and to its notes, newest first."""
        return self.filter(paragraph=paragraph).order_by("-at", "-pk")

    def of_text(self, obj, code, field=None):
        if isinstance(obj, Term):
            return self.filter(term=obj, field=field or "name", language=code)
        if isinstance(obj, Question):
            return self.filter(question=obj, field=field or "text", language=code)
        field = "body" if isinstance(obj, Note) else "text"
        target = {"note": obj} if isinstance(obj, Note) else {"paragraph": obj, "note__isnull": True}
        return self.filter(field=field, language=code, **target)

    def of_term(self, term):
        return self.filter(term=term).order_by("-at", "-pk")

    def of_question(self, question):
        return self.filter(question=question).order_by("-at", "-pk")

    def after_revision(self, revision):
        return self.filter(revision__gt=revision)


class Change(models.Model):
    """One language's text of a paragraph or note (or a term's name or forms) before and after one save; or a note
    added or deleted."""

    class Action(models.TextChoices):
        EDIT = "edit", _("edited")
        ADD = "add", _("note added")
        DELETE = "delete", _("note deleted")

    paragraph = models.ForeignKey(Paragraph, on_delete=models.CASCADE, null=True, blank=True, related_name="changes")
    term = models.ForeignKey(Term, on_delete=models.CASCADE, null=True, blank=True, related_name="changes")
    question = models.ForeignKey(Question, on_delete=models.CASCADE, null=True, blank=True, related_name="changes")
    note = models.ForeignKey(Note, null=True, blank=True, on_delete=models.SET_NULL, related_name="changes")
    action = models.CharField(max_length=10, choices=Action.choices, default=Action.EDIT)
    field = models.CharField(max_length=20)
    language = models.CharField(max_length=10, choices=languages.CHOICES, blank=True)
    before = models.TextField(blank=True)
    after = models.TextField(blank=True)
    # For a note added or deleted: what it takes to delete or recreate it.
    note_data = models.JSONField(default=dict, blank=True)
    revision = models.PositiveIntegerField(help_text=_("The paragraph's, note's or term's revision after this change."))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    minor = models.BooleanField(default=False, help_text=_("An English edit that does not outdate translations."))
    reverts = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="reverted_by")

    objects = ChangeQuerySet.as_manager()

    class Meta:
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["paragraph", "field", "language", "revision"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(paragraph__isnull=False, term__isnull=True, question__isnull=True)
                | Q(paragraph__isnull=True, term__isnull=False, question__isnull=True)
                | Q(paragraph__isnull=True, term__isnull=True, question__isnull=False),
                name="change_of_a_paragraph_a_term_or_a_question",
            ),
        ]

    def __str__(self):
        target = self.paragraph or self.term or self.question
        return f"{target} {self.field} [{self.language}] {self.get_action_display()} r{self.revision}"

    @property
    def who(self):
        return self.user.get_username() if self.user else _("content files")
