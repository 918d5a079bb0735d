"""What the study tools add after a section's texts (settings.READING_LAYERS): the ¶ menu and the reading-list bar."""

from django.template.loader import render_to_string

from .templatetags import study


def paragraph_menu(context, page):
    """The ¶ menu, once per page; an older release's page offers none."""
    if context.get("version"):
        return ""
    return render_to_string("study/paragraph_menu.html", study.paragraph_menu(context, context["section"]))


def reading_list_bar(context, page):
    return render_to_string("study/list_bar.html", study.reading_list_bar())
