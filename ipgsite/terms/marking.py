"""Marking the first occurrence of each term in a paragraph or note, from the stored occurrences, on the rendered
text."""

from django.urls import reverse
from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext

from ipgsite.crosslinks.text import pieces
from ipgsite.ipg import languages
from ipgsite.ipg.models import Note

from .models import Occurrence


def occurrences_by_text(section_id):
    """The stored occurrences in a section's paragraphs and notes, by (paragraph id, note id or None, language), as
    `ipg.reading.Text.place` files them, in one query."""
    found = {}
    rows = (
        Occurrence.objects.filter(paragraph__section_id=section_id)
        .select_related("term__defined_in__section")
        .order_by("start")
    )
    for occurrence in rows:
        found.setdefault((occurrence.paragraph_id, occurrence.note_id, occurrence.language), []).append(occurrence)
    return found


def _card(term, code, card_id):
    """The term's names in the other languages (each with its `lang`) and a link to its definition, or the glossary."""
    names = [(languages.html_lang(other), name) for other in languages.others(code) if (name := term.name_in(other))]
    glossary = f"{reverse('terms:glossary')}#{term.key}"
    if term.defined_in_id:
        paragraph = term.defined_in
        href = f"{paragraph.section.get_absolute_url()}#{paragraph.key}"
        label = gettext("Definition (%(number)s)") % {"number": paragraph.section.number}
    else:
        href, label = glossary, gettext("Glossary")
    return format_html(
        '<p class="term-card" id="{}" lang="{}" hidden><span class="term-card-name" lang="{}">{}</span>: {}'
        '<a href="{}">{}</a></p>',
        card_id,
        languages.html_lang(get_language()),
        languages.html_lang(code),
        term.name_in(code) or term.key,
        format_html_join("", '<span class="term-name" lang="{}">{}</span> · ', names),
        href,
        label,
    )


def _mark(occurrence, words, card_id):
    term = occurrence.term
    return format_html(
        '<a class="term" href="{}#{}" data-term="{}" aria-controls="{}">{}</a>',
        reverse("terms:glossary"),
        term.key,
        term.key,
        card_id,
        words,
    )


def with_terms(html, occurrences, id_prefix):
    """The rendered (and linked) HTML with the first occurrence of each term marked, and after it each marked term's
    card: its names in the other languages and a link to its definition (hidden until the mark is activated).
    An occurrence inside a link, or whose words are no longer where it was found, is left as text."""
    if not occurrences:
        return html
    pending = sorted(occurrences, key=lambda o: o.start)
    marked, out, cards = set(), [], []
    for piece in pieces(html):
        end = piece.offset + len(piece.text)
        here = [
            o
            for o in pending
            if piece.linkable and piece.offset <= o.start and o.end <= end and o.term_id not in marked
        ]
        if not here:
            out.append(piece.raw)
            continue
        cursor = 0
        for occurrence in here:
            start, stop = occurrence.start - piece.offset, occurrence.end - piece.offset
            if start < cursor or occurrence.term_id in marked or piece.text[start:stop] != occurrence.text:
                continue
            marked.add(occurrence.term_id)
            card_id = f"{id_prefix}-{occurrence.term.key}"
            out.append(escape(piece.text[cursor:start]))
            out.append(_mark(occurrence, piece.text[start:stop], card_id))
            cards.append(_card(occurrence.term, occurrence.language, card_id))
            cursor = stop
        out.append(escape(piece.text[cursor:]))
    if cards:
        out.append(format_html('<div class="term-cards">{}</div>', mark_safe("".join(cards))))
    return mark_safe("".join(out))


def _card_prefix(text):
    """The start of the ids of a text's term cards: one per paragraph or note and language on the page."""
    obj = text.obj
    if isinstance(obj, Note):
        return f"term-note_{obj.pk}-{text.code}"  # "_": no paragraph key has one
    return f"term-{obj.key}-{text.code}"


def marked(text, html, cache):
    """A paragraph's or note's rendered `html` (`text` is its `ipg.reading.Text`) with the first occurrence of each
    term marked, as reading pages show it. `cache` keeps each section's occurrences, read once per page.

    An earlier version's text is left as it is.
    """
    if text.obj is None or text.obj.pk is None:
        return html
    section_id = text.paragraph.section_id
    if section_id not in cache:
        cache[section_id] = occurrences_by_text(section_id)
    return with_terms(html, cache[section_id].get(text.place, []), _card_prefix(text))
