from django.contrib import admin

from ipgsite.ipg.admin import ReadOnlyAdmin

from .models import Link


@admin.register(Link)
class LinkAdmin(ReadOnlyAdmin):
    """Links are found in the text, never typed in: names are edited as aliases, mentions by editing the text."""

    list_display = ["paragraph", "note", "language", "text", "section", "mtr"]
    list_filter = ["language", "section"]
    search_fields = ["text", "paragraph__key", "section__number", "mtr"]
    list_select_related = ["paragraph__section", "note", "section"]
