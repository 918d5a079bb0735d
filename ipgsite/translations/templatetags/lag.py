from django import template

from ..status import lags_in

register = template.Library()


@register.simple_tag
def lags(section):
    """`{% lags section as lags %}`: the section's translations that follow an older English (status.Lag)."""
    return lags_in(section)


@register.inclusion_tag("translations/lag_mark.html", takes_context=True)
def lag_mark(context, lags, key, code):
    """The mark inside a paragraph whose `code` translation follows an older English, in the reader's language."""
    return {"lag": (lags or {}).get(key, {}).get(code), "key": key, "LANGUAGE_CODE": context.get("LANGUAGE_CODE")}
