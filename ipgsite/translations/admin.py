"""Statuses and history in the admin, read-only: they change only through edits of the text."""

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from ipgsite.ipg.admin import ReadOnlyAdmin

from .models import Change, Status


@admin.register(Status)
class StatusAdmin(ReadOnlyAdmin):
    list_display = ["paragraph", "language", "state", "confirmed_by", "confirmed_at", "reviewed_by", "translate"]
    list_filter = ["language", "state", "paragraph__section"]
    list_select_related = ["paragraph__section", "confirmed_by", "reviewed_by"]

    @admin.display(description=_("translate"))
    def translate(self, status):
        url = reverse("translations:translate", args=[status.paragraph.section.number, status.language])
        return format_html('<a href="{}#{}">{}</a>', url, status.paragraph.key, _("translate"))


@admin.register(Change)
class ChangeAdmin(ReadOnlyAdmin):
    list_display = ["paragraph", "field", "language", "action", "user", "at", "minor", "revision"]
    list_filter = ["language", "action", "minor", "paragraph__section"]
    list_select_related = ["paragraph__section", "user"]
    date_hierarchy = "at"
