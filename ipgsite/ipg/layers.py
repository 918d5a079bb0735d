"""What other apps add to the reading pages, named in the setting `READING_LAYERS` as MIDDLEWARE names middleware, so
that the core's templates and views name no feature app:

- "text": {name: function (text, html, page) -> html}, in order, on each paragraph's and note's rendered text
  (`reading.Text`): cross-links, term marks, a translation's lag mark. A page may ask for some of them only.
- "section": functions (section, version) -> dict, whose items a section page's context gets (the release that last
  changed the section).
- "after_section": functions (context, page) -> HTML, shown in order after a section's texts: the paragraph menu,
  the term cards, the reading-list bar, "Mentioned in", the finder's paths to this section.
- "version": one function (number, value) -> `versions.Version`, the section as an earlier version froze it, for a
  page's `?release=` (the releases app's); without it the site keeps no earlier versions.

`page` is a dict that lasts the whole page, where a layer keeps what it reads once per page (a section's links, the
terms marked so far).
"""

from functools import cache

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils.module_loading import import_string
from django.utils.safestring import mark_safe


@cache
def _loaded(kind):
    value = settings.READING_LAYERS.get(kind, ())
    if isinstance(value, str):
        return import_string(value)
    if isinstance(value, dict):
        return {name: import_string(path) for name, path in value.items()}
    return [import_string(path) for path in value]


@receiver(setting_changed)
def _forget(setting, **kwargs):
    if setting == "READING_LAYERS":
        _loaded.cache_clear()


def text_html(text, page, only=None):
    """A text's rendered HTML with the text layers applied in order (only those named in `only`, if given)."""
    html = text.html
    for name, layer in _loaded("text").items():
        if only is None or name in only:
            html = layer(text, html, page)
    return mark_safe(html)


def section_context(section, version):
    """What the section layers add to a section page's context."""
    extra = {}
    for layer in _loaded("section"):
        extra.update(layer(section, version))
    return extra


def after_section(context, page):
    """The HTML the after-section layers put after a section's texts, in order."""
    return mark_safe("".join(str(layer(context, page)) for layer in _loaded("after_section")))


def version_finder():
    """The function that finds a section as an earlier version froze it, or None if the site keeps none."""
    return _loaded("version") or None
