"""What the finder adds after a section's texts (settings.READING_LAYERS): the questions whose answers lead here."""

from django.template.loader import render_to_string

from .templatetags.finder import finder_steps_to


def steps_to(context, page):
    """The finder's steps to the section of the working text; none on an older release's page."""
    if context.get("version"):
        return ""
    return render_to_string("finder/leads_here.html", finder_steps_to(context["section"]))
