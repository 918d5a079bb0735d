"""The finder in the admin: translators word its questions and answers in their languages; editors change the graph.

Every save goes through `editing.writing`, as for paragraphs and terms: rights judged by what is stored, the
lost-update check, a revision, the history (shown on the question's page) and each language's status. The graph
itself is best changed in content/finder.toml, where `checkcontent` checks it.
"""

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ipgsite.editing import writing
from ipgsite.editing.admin import ContentAdmin, WrittenForm, _conflict_message, status_by_language
from ipgsite.editing.models import Change
from ipgsite.ipg import languages
from ipgsite.ipg.admin import ReadOnlyAdmin

from .models import Outcome, Question


def wording_columns():
    """{column: (field, language)} of a question's text and answers."""
    return {languages.column(name, code): (name, code) for name in writing.QUESTION_FIELDS for code in languages.CODES}


class QuestionForm(WrittenForm):
    def clean(self):
        cleaned = forms.ModelForm.clean(self)
        stored = Question.objects.filter(pk=self.instance.pk).first() if self.instance.pk else None
        base = cleaned.get("base_revision")
        conflicts = False
        for column, (field, code) in wording_columns().items():
            if column not in self.fields or column not in cleaned:
                continue
            posted = cleaned.get(column) or ""
            try:
                if stored is None:
                    cleaned[column] = writing.clean_text(posted)
                    continue
                text = writing.check_text(
                    stored, code, posted, self.user, base if base is not None else stored.revision, field=field
                )
            except writing.Conflict as conflict:
                conflicts = True
                self.add_error(column, _conflict_message(conflict))
                continue
            except ValidationError as error:
                self.add_error(column, error)
                continue
            cleaned[column] = writing.text_in(stored, code, field) if text is None else text
        if conflicts:
            self.data = self.data.copy()
            self.data[self.add_prefix("base_revision")] = stored.revision
        return cleaned


@admin.register(Question)
class QuestionAdmin(ContentAdmin):
    form = QuestionForm
    list_display = ["key", "text_en", "status_of_wording"]
    search_fields = ["key", "text_en", "text_zh_hans", "text_ja"]
    fields = ["key", "order", "text", "answers", "choices", "cites", "base_revision", "status_of_wording", "history"]
    readonly_fields = ["status_of_wording", "history"]

    @admin.display(description=gettext_lazy("status"))
    def status_of_wording(self, question):
        return status_by_language(question)

    @admin.display(description=gettext_lazy("history"))
    def history(self, question):
        if not question.pk:
            return "—"
        changes = Change.objects.of_question(question).select_related("user")[:50]
        if not changes:
            return "—"
        rows = (
            (
                c.at.strftime("%Y-%m-%d %H:%M"),
                c.who,
                c.field,
                c.language,
                c.before or "—",
                c.after or "—",
                reverse("workspace:revert", args=[c.pk]),
                _("Revert"),
            )
            for c in changes
        )
        # The revert button posts the page's form (with its CSRF token) to the revert URL instead.
        row = (
            '<li>{} · {} · {} [{}]: {} → {} <button type="submit" formmethod="post" formaction="{}" '
            'formnovalidate class="button">{}</button></li>'
        )
        return format_html("<ul>{}</ul>", format_html_join("", row, rows))

    def written_columns(self):
        return wording_columns()


@admin.register(Outcome)
class OutcomeAdmin(ReadOnlyAdmin):
    """Outcomes have no wording of their own (a section names the infraction): change them in content/finder.toml."""

    list_display = ["key", "section"]
    list_select_related = ["section"]
