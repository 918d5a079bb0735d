from django.contrib import admin

from .models import Link


@admin.register(Link)
class LinkAdmin(admin.ModelAdmin):
    """Links are found in the text, never typed in: names are edited as aliases, mentions by editing the text."""

    list_display = ["paragraph", "note", "language", "text", "section", "mtr"]
    list_filter = ["language", "section"]
    search_fields = ["text", "paragraph__key", "section__number", "mtr"]
    list_select_related = ["paragraph__section", "note", "section"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
