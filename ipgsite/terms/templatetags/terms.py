from django import template

from ipgsite.ipg.templatetags.ipg import reading_page

from ..marking import page_cards

register = template.Library()


@register.simple_tag(takes_context=True)
def page_term_cards(context):
    """After the texts of a page that is not a section's (a share page): the card of each term marked on it, once per
    term, hidden until a mark is activated. (A section page's cards are an after-section layer.)"""
    return page_cards(reading_page(context).get("terms", {}))
