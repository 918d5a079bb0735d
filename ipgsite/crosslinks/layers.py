"""What cross-links add after a section's texts (settings.READING_LAYERS): the paragraphs that mention it."""

from django.template.loader import render_to_string

from .templatetags.crosslinks import mentioned_in as mentioning


def mentioned_in(context, page):
    return render_to_string("crosslinks/mentioned_in.html", mentioning(context["section"]))
