"""Terms in the admin: editors add and change terms; translators add and edit their languages' names and forms.

Every save goes through `translations.writing`, as for paragraphs: rights judged by what is stored, the lost-update
check, a revision, the history (shown on the term's page) and each name's status.
"""

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy

from ipgsite.ipg import languages
from ipgsite.ipg.admin import ReadOnlyAdmin
from ipgsite.translations import writing
from ipgsite.translations.admin import ContentAdmin, WrittenForm, _conflict_message
from ipgsite.translations.models import Change

from .models import Occurrence, Term


def term_columns():
    """{column: (field, language)} of a term's names, variants and inflections."""
    return {languages.column(name, code): (name, code) for name in writing.TERM_FIELDS for code in languages.CODES}


class TermForm(WrittenForm):
    def clean(self):
        cleaned = forms.ModelForm.clean(self)
        stored = Term.objects.filter(pk=self.instance.pk).first() if self.instance.pk else None
        base = cleaned.get("base_revision")
        conflicts = False
        for column, (field, code) in term_columns().items():
            if column not in self.fields or column not in cleaned:
                continue
            posted = cleaned.get(column) or ""
            try:
                if stored is None:
                    cleaned[column] = writing.clean_form(posted, field)
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


@admin.register(Term)
class TermAdmin(ContentAdmin):
    form = TermForm
    list_display = ["key", "kind", "name_en", "name_zh_hans", "name_ja", "status_of_names"]
    list_filter = ["kind"]
    search_fields = ["key", "name_en", "name_zh_hans", "name_ja", "variants_en", "variants_zh_hans", "variants_ja"]
    fields = [
        "key",
        "kind",
        "order",
        "name",
        "variants",
        "inflections",
        "defined_in",
        "found",
        "base_revision",
        "status_of_names",
        "history",
    ]
    readonly_fields = ["status_of_names", "history"]
    raw_id_fields = ["defined_in"]

    @admin.display(description=gettext_lazy("status"))
    def status_of_names(self, term):
        if not term.pk:
            return "—"
        statuses = {s.language: s for s in term.statuses.all()}
        return format_html_join(
            " · ",
            "{}: {}",
            ((code, statuses[code].get_state_display() if code in statuses else "—") for code in languages.CODES),
        )

    @admin.display(description=gettext_lazy("history"))
    def history(self, term):
        if not term.pk:
            return "—"
        changes = Change.objects.of_term(term).select_related("user")[:50]
        if not changes:
            return "—"
        return format_html(
            "<ul>{}</ul>",
            format_html_join(
                "",
                "<li>{} · {} · {} [{}]: {} → {}</li>",
                (
                    (
                        change.at.strftime("%Y-%m-%d %H:%M"),
                        change.who,
                        change.field,
                        change.language,
                        change.before or "—",
                        change.after or "—",
                    )
                    for change in changes
                ),
            ),
        )

    def save_model(self, request, obj, form, change):
        stored = Term.objects.get(pk=obj.pk) if change else obj
        columns = term_columns()
        for column in columns if not change else ():
            setattr(obj, column, None)  # a new term's names are written below, each with its history
        values = {
            name: form.cleaned_data[name]
            for name in form.changed_data
            if name in form.cleaned_data and name not in columns and name in self._model_field_names()
        }
        if values or not change:
            stored = writing.save_structure(stored, values, by=request.user)
            obj.pk = stored.pk
        base = form.cleaned_data.get("base_revision")
        for column, (field, code) in columns.items():
            if column in form.cleaned_data and (form.cleaned_data[column] or "") != writing.text_in(
                stored, code, field
            ):
                writing.write_text(
                    stored,
                    code,
                    form.cleaned_data[column] or "",
                    by=request.user,
                    base_revision=writing.LATEST if not change or base is None else base,
                    field=field,
                )


@admin.register(Occurrence)
class OccurrenceAdmin(ReadOnlyAdmin):
    """Found in the text, never typed in: terms are edited as terms, occurrences by editing the text."""

    list_display = ["term", "paragraph", "note", "language", "text"]
    list_filter = ["language", "term__kind"]
    search_fields = ["text", "term__key", "paragraph__key"]
    list_select_related = ["term", "paragraph__section", "note"]
