from django import template

from ipgsite.ipg.models import Note

from ..marking import occurrences_by_text, with_terms

register = template.Library()


@register.simple_tag(takes_context=True)
def terms_marked(context, text, html):
    """A paragraph's rendered `html` (`text` is its `ipg.reading.Text`) with the first occurrence of each term
    marked: a link to the glossary entry, and the term's names in the other languages, in the page.

    The section's occurrences are read once per page. Notes and an earlier version's text are left as they are.
    """
    obj = text.obj
    if obj is None or obj.pk is None or isinstance(obj, Note):
        return html
    cache = context.render_context.setdefault("terms", {})
    if obj.section_id not in cache:
        cache[obj.section_id] = occurrences_by_text(obj.section_id)
    occurrences = cache[obj.section_id].get((obj.pk, text.written_in), [])
    return with_terms(html, occurrences, f"term-{obj.key}-{text.code}")
