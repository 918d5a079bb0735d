from django import template

from ..marking import marked

register = template.Library()


@register.simple_tag(takes_context=True)
def terms_marked(context, text, html):
    """A paragraph's or note's rendered `html` (`text` is its `ipg.reading.Text`) with the first occurrence of each
    term marked: a link to the glossary entry, and the term's names in the other languages, in the page.

    The section's occurrences are read once per page. An earlier version's text is left as it is.
    """
    return marked(text, html, context.render_context.setdefault("terms", {}))
