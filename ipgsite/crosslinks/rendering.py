"""Turning the stored mentions in rendered text into links to the sections, in the reader's language: each is found
again in the text as this page renders it (`ipgsite.ipg.spans`)."""

import nh3
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext

from ipgsite.ipg import markup, spans

from .models import Link

# The translators' sanitizer, plus what linking adds: a class and title on links, and <cite> for the MTR.
TAGS = markup.ALLOWED_TAGS | {"a", "cite"}
ATTRIBUTES = {tag: set(attrs) for tag, attrs in markup.ALLOWED_ATTRIBUTES.items()}
ATTRIBUTES["a"] = ATTRIBUTES.get("a", set()) | {"href", "title", "class", "rel"}
ATTRIBUTES["cite"] = {"class", "title"}


def links_by_text(section_id):
    """The links stored for a section's texts, by (paragraph id, note id or None, language), in one query."""
    return Link.objects.in_section(section_id).select_related("section").by_text()


def linked_html(text, cache, html=None):
    """A paragraph's or note's rendered text (`ipg.reading.Text`; or `html`, its HTML as earlier layers left it) with
    its mentions of other sections linked. `cache` keeps each section's links, read once per page in one query. An
    earlier version's text is left unlinked: links are found in the current text only."""
    html = text.html if html is None else html
    if text.obj.pk is None:
        return html
    section_id = text.paragraph.section_id
    if section_id not in cache:
        cache[section_id] = links_by_text(section_id)
    return with_links(html, cache[section_id].get(text.place, []))


def link_mentions(text, html, page):
    """A text layer of the reading pages (settings.READING_LAYERS): the text's mentions of other sections linked."""
    return linked_html(text, page.setdefault("links", {}), html)


def _title(section, code):
    title = section.title_in(code) or section.title_en
    return f"{section.number} {title}"


def _mention_html(link, words, code):
    if link.mtr:
        title = gettext("Magic Tournament Rules, section %(number)s") % {"number": link.mtr}
        return format_html('<cite class="mtr" title="{}">{}</cite>', title, words)
    href = reverse("ipg:section", kwargs={"number": link.section.number})
    return format_html('<a class="xref" href="{}" title="{}">{}</a>', href, _title(link.section, code), words)


def with_links(html, links):
    """The rendered HTML with each stored mention made a link (or a citation, for the MTR); still sanitized.

    A mention whose words the text no longer holds (it changed since) is left as text.
    """
    if not links:
        return html
    code = get_language()
    linked = spans.splice(html, spans.place(links, html), lambda link, words: _mention_html(link, words, code))
    clean = nh3.clean(linked, tags=TAGS, attributes=ATTRIBUTES, url_schemes=markup.ALLOWED_URL_SCHEMES, link_rel=None)
    return mark_safe(clean)
