"""How the write path writes the finder (`ipgsite.editing.registry`): a question's wording (its text, and its answers
one per line) per language, with its history and a status that follows the English wording, and a case's wording
likewise; outcomes are structure, which editors change."""

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from ipgsite.editing import registry
from ipgsite.editing.writing import clean_text

from .models import Case, Outcome, Question

FIELDS = ("text", "answers")


def clean_wording(question, field, text):
    """A finder question (one paragraph of plain text) or its answers (one line per answer, all or none)."""
    text = clean_text(text)
    if field == "text":
        return text
    lines = [line.strip() for line in text.split("\n")] if text else []
    if question is None:  # a new question: its choices are not set yet
        return "\n".join(lines)
    if lines and (len(lines) != len(question.choices) or not all(lines)):
        raise ValidationError(
            _("Write one answer per line, %(count)d lines in the order the answers show.")
            % {"count": len(question.choices)}
        )
    return "\n".join(lines)


def clean_case(case, field, text):
    """A case's wording: one paragraph of plain text."""
    return clean_text(text)


registry.register(Question, fields=FIELDS, clean=clean_wording)
registry.register(Outcome)
registry.register(Case, fields=("text",), clean=clean_case)
