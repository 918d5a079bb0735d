from django import template

from ipgsite.ipg.models import Note

from ..marking import occurrences_by_text, with_terms

register = template.Library()


def _card_prefix(text):
    """The start of the ids of a text's term cards: one per paragraph or note and language on the page."""
    obj = text.obj
    if isinstance(obj, Note):
        return f"term-note_{obj.pk}-{text.code}"  # "_": no paragraph key has one
    return f"term-{obj.key}-{text.code}"


@register.simple_tag(takes_context=True)
def terms_marked(context, text, html):
    """A paragraph's or note's rendered `html` (`text` is its `ipg.reading.Text`) with the first occurrence of each
    term marked: a link to the glossary entry, and the term's names in the other languages, in the page.

    The section's occurrences are read once per page. An earlier version's text is left as it is.
    """
    if text.obj is None or text.obj.pk is None:
        return html
    section_id = text.paragraph.section_id
    cache = context.render_context.setdefault("terms", {})
    if section_id not in cache:
        cache[section_id] = occurrences_by_text(section_id)
    return with_terms(html, cache[section_id].get(text.place, []), _card_prefix(text))
