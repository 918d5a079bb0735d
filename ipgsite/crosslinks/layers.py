"""What cross-links add after a section's texts (settings.READING_LAYERS): the paragraphs that mention it."""

from django.template.loader import render_to_string

from .templatetags.crosslinks import mentioned_in as mentioning


def mentioned_in(context, page):
    """What mentions the section in the working text; an older release's page, which holds no links, has none."""
    if context.get("version"):
        return ""
    return render_to_string("crosslinks/mentioned_in.html", mentioning(context["section"]))
