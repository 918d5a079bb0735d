from django import template

from ..marking import marked, page_cards

register = template.Library()


@register.simple_tag(takes_context=True)
def terms_marked(context, text, html):
    """A paragraph's or note's rendered `html` (`text` is its `ipg.reading.Text`) with the first occurrence of each
    term marked: a link to the glossary entry, whose card (`term_cards`) names the term in every language.

    The section's occurrences are read once per page. An earlier version's text is left as it is.
    """
    return marked(text, html, context.render_context.setdefault("terms", {}))


@register.simple_tag(takes_context=True)
def term_cards(context, cache=None):
    """After the texts: the card of each term marked on the page, once per term (hidden until a mark is activated).
    `cache` is the page's own when its texts were marked through one (study's `linked_text`)."""
    return page_cards(cache if cache is not None else context.render_context.get("terms", {}))
