"""The infraction finder: questions that lead, answer by answer, to the Game Play Error a situation is.

The graph is content (content/finder.toml, see `files`). A question's wording is the site's own text, not the IPG's:
its `text` and its `answers` (one label per line, in the order of `choices`) have a column per language and change
only through `editing.writing`, like paragraphs: with statuses, history, rights and the lost-update check.
"""

from django.contrib.contenttypes.fields import GenericRelation
from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from ipgsite.ipg import languages
from ipgsite.ipg.models import KEY_PATTERN, PARAGRAPH_ADDRESS, Paragraph, Section

node_key_validator = RegexValidator(
    KEY_PATTERN, _("A key is lowercase letters and digits joined by hyphens, e.g. seen-not-added.")
)


def check_cites(cites):
    """A question's or outcome's `cites`: a list of the addresses of paragraphs that exist, or ValidationError naming
    what is wrong (a citation the finder could not find would silently be left off its page)."""
    if not isinstance(cites, list) or not all(isinstance(cite, str) for cite in cites):
        raise ValidationError({"cites": _('Cites is a list of paragraphs, e.g. ["2.3#definition-1"].')})
    for cite in cites:
        address = PARAGRAPH_ADDRESS.fullmatch(cite)
        if address is None:
            raise ValidationError(
                {
                    "cites": _("%(cite)s is no paragraph: write a section and a key, e.g. 2.3#definition-1.")
                    % {"cite": cite}
                }
            )
        if not Paragraph.objects.filter(section__number=address["number"], key=address["key"]).exists():
            raise ValidationError(
                {
                    "cites": _("%(cite)s: section %(number)s has no paragraph with this key.")
                    % {**address.groupdict(), "cite": cite}
                }
            )


class Question(models.Model):
    """One step of the finder: a question, its answers, and the paragraphs that justify the distinction it draws.

    `choices` is [{"key": answer key, "next": a question's or an outcome's key}], in the order the answers show;
    `cites` is ["2.3#definition-1", …].
    """

    key = models.CharField(max_length=64, unique=True, validators=[node_key_validator], verbose_name=_("key"))
    order = models.PositiveIntegerField(default=0, verbose_name=_("order"))
    text = models.TextField(blank=True, verbose_name=_("text"))
    answers = models.TextField(
        blank=True,
        help_text=_("The answers' wording, one per line, in the order they show."),
        verbose_name=_("answers"),
    )
    choices = models.JSONField(default=list, verbose_name=_("choices"))
    cites = models.JSONField(default=list, verbose_name=_("cites"))
    revision = models.PositiveIntegerField(default=0, editable=False, verbose_name=_("revision"))
    # Written through ipgsite.editing (finder/editing.py): the wording's status per language, and the history.
    statuses = GenericRelation("translations.Status", related_query_name="question")
    changes = GenericRelation("translations.Change", related_query_name="question")

    class Meta:
        ordering = ["order", "key"]
        verbose_name = _("question")
        verbose_name_plural = _("questions")

    def __str__(self):
        return self.key

    def clean(self):
        super().clean()
        check_cites(self.cites)

    def text_in(self, code):
        return languages.translated(self, "text", code)

    def answers_in(self, code):
        """The answers' labels in one language, one per choice ('' where a label is missing)."""
        labels = [line.strip() for line in languages.translated(self, "answers", code).splitlines()]
        return (labels + [""] * len(self.choices))[: len(self.choices)]


class Outcome(models.Model):
    """Where a path ends: an infraction (a section, whose penalty is the section's), or no infraction where the IPG
    says so (no section), and the paragraphs that say so.

    `guidance`: the cited paragraphs do not name the infraction themselves (2.3 definition-1 says only that it is not
    a Hidden Card Error); that it is this one is the site's guidance, and the page says so.
    """

    key = models.CharField(max_length=64, unique=True, validators=[node_key_validator], verbose_name=_("key"))
    order = models.PositiveIntegerField(default=0, verbose_name=_("order"))
    # A section a load removes takes its outcomes with it; the load's graph no longer names it (checkcontent).
    section = models.ForeignKey(
        Section,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="finder_outcomes",
        verbose_name=_("section"),
        help_text=_("Empty: the IPG says this is not an infraction."),
    )
    cites = models.JSONField(default=list, verbose_name=_("cites"))
    guidance = models.BooleanField(
        default=False,
        verbose_name=_("site's guidance"),
        help_text=_("The cited paragraphs do not name this infraction: the finder's answer is the site's guidance."),
    )

    class Meta:
        ordering = ["order", "key"]
        verbose_name = _("outcome")
        verbose_name_plural = _("outcomes")

    def __str__(self):
        return f"{self.key} → {self.section.number if self.section_id else '-'}"

    @property
    def is_infraction(self):
        return self.section_id is not None

    def clean(self):
        super().clean()
        check_cites(self.cites)


class Example(models.Model):
    """A worked example: an IPG example paragraph, and the answers a judge gives for its facts from the first question.

    The path ends at the example's own section (checkcontent sees to it); the finder's first page lists them.
    """

    paragraph = models.CharField(max_length=80, unique=True)  # "2.3#example-c"
    order = models.PositiveIntegerField(default=0)
    answers = models.JSONField(default=list)  # answer keys, from the first question

    class Meta:
        ordering = ["order", "paragraph"]

    def __str__(self):
        return f"{self.paragraph}: {'/'.join(self.answers)}"


class Case(models.Model):
    """A situation the IPG decides outside its examples (a trivial slip in the mulligan procedure, a trigger with no
    effect, an eight-card hand noticed on turn 2), told in the site's own words, with the answers a judge gives for
    it from the first question and the paragraphs that say where it ends (checkcontent sees to both)."""

    key = models.CharField(max_length=64, unique=True, validators=[node_key_validator], verbose_name=_("key"))
    order = models.PositiveIntegerField(default=0, verbose_name=_("order"))
    text = models.TextField(blank=True, verbose_name=_("text"))
    answers = models.JSONField(default=list, verbose_name=_("answers"))  # answer keys, from the first question
    cites = models.JSONField(default=list, verbose_name=_("cites"))
    revision = models.PositiveIntegerField(default=0, editable=False, verbose_name=_("revision"))
    statuses = GenericRelation("translations.Status", related_query_name="finder_case")
    changes = GenericRelation("translations.Change", related_query_name="finder_case")

    class Meta:
        ordering = ["order", "key"]
        verbose_name = _("case")
        verbose_name_plural = _("cases")

    def __str__(self):
        return self.key

    def text_in(self, code):
        return languages.translated(self, "text", code)
