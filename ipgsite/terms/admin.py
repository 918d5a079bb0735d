"""Terms in the admin: editors add and change terms; translators add and edit their languages' names and forms.

Every save goes through `editing.writing`, as for paragraphs: rights judged by what is stored, the lost-update
check, a revision, the history (shown on the term's page) and each name's status.
"""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ipgsite.editing import statuses
from ipgsite.editing.admin import ContentAdmin, WrittenForm, history_list, status_by_language, written_columns
from ipgsite.editing.permissions import translatable_languages
from ipgsite.ipg import languages
from ipgsite.ipg.admin import ReadOnlyAdmin

from .editing import refuse_nameless, refuse_shared_name
from .models import Occurrence, Term


class TermForm(WrittenForm):
    def check_texts(self, stored, cleaned):
        """The names as this save would leave them: none shared with another term, and at least one."""
        names = {}
        for column, (field, code) in written_columns(Term).items():
            if field != "name":
                continue
            if column in self.fields and column not in self.errors:
                names[column] = cleaned.get(column) or ""
                if names[column] and names[column] != ((stored.name_in(code) or "") if stored else ""):
                    try:
                        refuse_shared_name(stored, code, names[column])
                    except ValidationError as error:
                        self.add_error(column, error)
            else:
                names[column] = (stored.name_in(code) or "") if stored else ""
        try:
            refuse_nameless(names.values())
        except ValidationError as error:
            cleared = [c for c in names if c in self.fields and c not in self.errors and not names[c]]
            self.add_error(cleared[0] if cleared else None, error)


def _status_action(step, code):
    def action(modeladmin, request, queryset):
        done = 0
        for term in queryset:
            try:
                step(term, code, request.user)
                done += 1
            except PermissionDenied as refused:
                messages.error(request, f"{term.key} [{code}]: {refused}")
        if done:
            messages.success(request, _("%(count)d names changed status.") % {"count": done})

    return action


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
        "attested_by_variants",
        "not_in",
        "base_revision",
        "status_of_names",
        "history",
    ]
    readonly_fields = ["status_of_names", "history"]
    raw_id_fields = ["defined_in"]

    @admin.display(description=gettext_lazy("status"))
    def status_of_names(self, term):
        return status_by_language(term)

    @admin.display(description=gettext_lazy("history"))
    def history(self, term):
        return history_list(term)

    def get_actions(self, request):
        """Per language the user translates: confirm names after an English change, and mark names reviewed."""
        actions = super().get_actions(request)
        for code in translatable_languages(request.user):
            for verb, step in (("confirm", statuses.confirm), ("review", statuses.mark_reviewed)):
                name = f"{verb}_{languages.field_suffix(code)}"
                label = (
                    _("Confirm the %(language)s names (still right for the English)")
                    if verb == "confirm"
                    else _("Mark the %(language)s names reviewed")
                ) % {"language": languages.called(code)}
                actions[name] = (_status_action(step, code), name, label)
        return actions


@admin.register(Occurrence)
class OccurrenceAdmin(ReadOnlyAdmin):
    """Found in the text, never typed in: terms are edited as terms, occurrences by editing the text."""

    list_display = ["term", "paragraph", "note", "language", "text"]
    list_filter = ["language", "term__kind"]
    search_fields = ["text", "term__key", "paragraph__key"]
    list_select_related = ["term", "paragraph__section", "note"]
