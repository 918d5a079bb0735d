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
    """Where a path ends: an infraction (a section, whose penalty is the section's), and the paragraphs that say so."""

    key = models.CharField(max_length=64, unique=True, validators=[node_key_validator], verbose_name=_("key"))
    order = models.PositiveIntegerField(default=0, verbose_name=_("order"))
    # A section a load removes takes its outcomes with it; the load's graph no longer names it (checkcontent).
    section = models.ForeignKey(
        Section, on_delete=models.CASCADE, related_name="finder_outcomes", verbose_name=_("section")
    )
    cites = models.JSONField(default=list, verbose_name=_("cites"))

    class Meta:
        ordering = ["order", "key"]
        verbose_name = _("outcome")
        verbose_name_plural = _("outcomes")

    def __str__(self):
        return f"{self.key} → {self.section.number}"

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
