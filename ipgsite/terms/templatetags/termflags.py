"""The termbase on the translators' pages: flags on the translate page, their counts on the dashboard."""

from django import template

from ipgsite.ipg import languages
from ipgsite.ipg.models import Paragraph

from ..flags import flag_counts, flags_in

register = template.Library()


@register.inclusion_tag("terms/flags.html")
def term_flags(item, code):
    """The terms the paragraph's source (the text shown beside the field) uses and the target text lacks."""
    obj = item.obj
    if not isinstance(obj, Paragraph):
        return {"flags": []}
    source = item.reference[0]
    flags = flags_in(obj.text_in(source), source, item.text, code) if source else []
    return {"flags": flags, "lang": languages.html_lang(code), "source_lang": languages.html_lang(source or code)}


@register.inclusion_tag("terms/flag_count.html", takes_context=True)
def term_flag_count(context, section, code):
    cache = context.render_context
    if "term_flag_counts" not in cache:
        cache["term_flag_counts"] = flag_counts()
    return {"count": cache["term_flag_counts"].get((section.pk, code), 0), "section": section, "code": code}
