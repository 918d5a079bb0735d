"""The finder in the admin: translators word its questions and answers in their languages; editors change the graph.

Every save goes through `editing.writing`, as for paragraphs and terms: rights judged by what is stored, the
lost-update check, a revision, the history (shown on the question's page) and each language's status. The graph
itself is best changed in content/finder.toml, where `checkcontent` checks it.
"""

from django.contrib import admin
from django.utils.translation import gettext_lazy

from ipgsite.editing.admin import ContentAdmin, WrittenForm, history_list, status_by_language
from ipgsite.ipg.admin import ReadOnlyAdmin

from .models import Case, Outcome, Question


@admin.register(Question)
class QuestionAdmin(ContentAdmin):
    form = WrittenForm
    list_display = ["key", "text_en", "status_of_wording"]
    search_fields = ["key", "text_en", "text_zh_hans", "text_ja"]
    fields = ["key", "order", "text", "answers", "choices", "cites", "base_revision", "status_of_wording", "history"]
    readonly_fields = ["status_of_wording", "history"]

    @admin.display(description=gettext_lazy("status"))
    def status_of_wording(self, question):
        return status_by_language(question)

    @admin.display(description=gettext_lazy("history"))
    def history(self, question):
        return history_list(question)


@admin.register(Outcome)
class OutcomeAdmin(ReadOnlyAdmin):
    """Outcomes have no wording of their own (a section names the infraction): change them in content/finder.toml."""

    list_display = ["key", "section", "guidance"]
    list_select_related = ["section"]


@admin.register(Case)
class CaseAdmin(ContentAdmin):
    """A case's wording is translated here; its answers and citations change in content/finder.toml."""

    form = WrittenForm
    list_display = ["key", "text_en", "status_of_wording"]
    search_fields = ["key", "text_en", "text_zh_hans", "text_ja"]
    fields = ["key", "order", "text", "answers", "cites", "base_revision", "status_of_wording", "history"]
    readonly_fields = ["key", "order", "answers", "cites", "status_of_wording", "history"]

    def has_add_permission(self, request):
        return False

    @admin.display(description=gettext_lazy("status"))
    def status_of_wording(self, case):
        return status_by_language(case)

    @admin.display(description=gettext_lazy("history"))
    def history(self, case):
        return history_list(case)
