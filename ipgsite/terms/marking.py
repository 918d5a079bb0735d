"""Marking the first occurrence of each term in a paragraph or note, from the stored occurrences, on the rendered
text: each is found again in the text as this page renders it (`ipgsite.ipg.spans`)."""

from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext

from ipgsite.ipg import languages, spans

from .models import Occurrence


def occurrences_by_text(section_id):
    """The stored occurrences in a section's paragraphs and notes, by (paragraph id, note id or None, language), as
    `ipg.reading.Text.place` files them, in one query."""
    return Occurrence.objects.in_section(section_id).prefetch_related("term__defined_in__section").by_text()


def card_id(term):
    """The id of a term's card: one card per term on a page, however often the term is marked."""
    return f"term-{term.key}"


def _card(term):
    """The term's names (each with its `lang`) and a link to its definition, or the glossary."""
    names = [(languages.html_lang(code), name) for code in languages.CODES if (name := term.name_in(code))]
    if term.defined_in_id:
        paragraph = term.defined_in
        href = f"{paragraph.section.get_absolute_url()}#{paragraph.key}"
        label = gettext("Definition (%(number)s)") % {"number": paragraph.section.number}
    else:
        href, label = f"{reverse('terms:glossary')}#{term.key}", gettext("Glossary")
    return format_html(
        '<p class="term-card" id="{}" lang="{}" hidden>{}<a href="{}">{}</a></p>',
        card_id(term),
        languages.html_lang(get_language()),
        format_html_join("", '<span class="term-name" lang="{}">{}</span> · ', names),
        href,
        label,
    )


def cards(marked_terms):
    """The cards of the terms marked on a page, once each, hidden until a mark is activated (static/js/site.js moves
    the card under the text whose mark was activated)."""
    if not marked_terms:
        return ""
    return format_html('<div class="term-cards">{}</div>', mark_safe("".join(map(_card, marked_terms.values()))))


def _mark(occurrence, words, glossary):
    """A link to the term's entry in the glossary (at `glossary`), whose #fragment is the term's key;
    static/js/site.js makes it control the term's card (`card_id`)."""
    return format_html('<a class="term" href="{}#{}">{}</a>', glossary, occurrence.term.key, words)


def with_terms(html, occurrences, marked_terms, rendered=None):
    """The rendered (and linked) HTML with the first occurrence of each term marked; each marked term is added to
    `marked_terms` (by key), whose cards the page shows once (`cards`).

    The occurrences are found in `rendered`, the text's HTML as this page renders it before links are added (by
    default `html` itself), whose text `html` shares. An occurrence inside a link, or whose words the text no longer
    holds, is left as text, and the term's next occurrence is marked."""
    if not occurrences:
        return html
    marked, glossary = set(), reverse("terms:glossary")

    def mark(occurrence, words):
        if occurrence.term_id in marked:
            return None
        marked.add(occurrence.term_id)
        marked_terms.setdefault(occurrence.term.key, occurrence.term)
        return _mark(occurrence, words, glossary)

    return mark_safe(spans.splice(html, spans.place(occurrences, html if rendered is None else rendered), mark))


MARKED = "marked"  # the key, in a page's cache, of the terms marked so far (by term key)


def marked(text, html, cache):
    """A paragraph's or note's rendered `html` (`text` is its `ipg.reading.Text`) with the first occurrence of each
    term marked, as reading pages show it. `cache` keeps each section's occurrences, read once per page, and the
    terms marked so far, whose cards `page_cards(cache)` shows after the text.

    An earlier version's text is left as it is.
    """
    if text.obj is None or text.obj.pk is None:
        return html
    section_id = text.paragraph.section_id
    if section_id not in cache:
        cache[section_id] = occurrences_by_text(section_id)
    return with_terms(html, cache[section_id].get(text.place, []), cache.setdefault(MARKED, {}), rendered=text.html)


def page_cards(cache):
    """The cards of every term `marked` marked with this cache: once per term on the page."""
    return cards(cache.get(MARKED))


def mark_terms(text, html, page):
    """A text layer of the reading pages (settings.READING_LAYERS): the first occurrence of each term marked."""
    return marked(text, html, page.setdefault("terms", {}))


def term_cards(context, page):
    """After a section's texts (settings.READING_LAYERS): the cards of the terms marked on the page, once each."""
    return page_cards(page.get("terms", {}))
