from django import template
from django.utils.translation import gettext_lazy as _

from ipgsite.ipg.models import Note

from ..lags import lags_in

register = template.Library()

# A note's original, in the language it is in, as the mark on its outdated translation names it to the reader.
ORIGINALS = {
    "en": _("the note's English original"),
    "zh-hans": _("the note's Chinese original"),
    "ja": _("the note's Japanese original"),
}


@register.simple_tag
def lags(section):
    """`{% lags section as lags %}`: the section's translations that follow an older source (releases.lags.Lags)."""
    return lags_in(section)


@register.inclusion_tag("releases/lag_mark.html", takes_context=True)
def lag_mark(context, lags, obj, code):
    """The mark inside a paragraph, or a note, whose `code` translation follows an older English (a note's: an older
    original), in the reader's language."""
    lag = lags.of(obj, code) if lags else None  # an older release's page has no lags, and frozen paragraphs
    if lag is None:
        return {}
    return {
        "lag": lag,
        "anchor": f"note-{obj.pk}" if isinstance(obj, Note) else obj.key,
        "original": ORIGINALS.get(lag.original, ""),
        "LANGUAGE_CODE": context.get("LANGUAGE_CODE"),
    }
