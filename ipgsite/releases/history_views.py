"""One paragraph across the releases: `/<lang>/ipg/<number>/<key>/history/`."""

from django.http import Http404, HttpResponsePermanentRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from ipgsite.ipg import compare, languages
from ipgsite.ipg.models import Part, Section, paragraph_at

from . import history
from .views import cell, status_label


def _following_label(following):
    """What a translation in a release followed, in the page's language (`history.Following`)."""
    if following.state == history.FOLLOWS:
        return _("followed the English of this release")
    if following.state == history.OLDER and following.release:
        return _("followed the English of %(date)s, an older release") % {"date": following.release}
    if following.state == history.OLDER:
        return _("followed an older English that no release here holds")
    if following.state == history.BEHIND:
        return _("followed an older English than this release's")
    if following.state == history.NOT_KNOWN:
        return _("not known: no release records whether it followed the English then")
    return _("no translation")


def _history_cells(cells, codes, page_lang):
    """The cells of a paragraph's or note's text in `codes`; in one language with no text of its own in that
    release, the first language whose text changed, as the changes page shows it."""
    shown = [cell(code, cells[code]) for code in codes]
    if len(codes) == 1 and shown[0]["empty"]:
        changed = [code for code in languages.CODES if not cells[code]["empty"]]
        if changed:
            shown = [cell(changed[0], cells[changed[0]], missing_in=languages.name(page_lang))]
    return shown


def _history_entry(entry, codes, page_lang):
    shown = {
        "release": entry.release,
        "previous": entry.previous,
        "status": entry.status,
        "status_label": _history_status_label(entry.status),
        "key": entry.key,
        "renamed_from": entry.renamed_from,
        "part": Part(entry.part).label,
        "moved": entry.moved and entry.status != "moved",
        "cells": _history_cells(entry.cells, codes, page_lang) if entry.cells else [],
        "notes": [
            {
                "place": note.place,
                "status_label": _history_status_label(note.status),
                "source": note.source,
                "note_language": languages.name(note.language),
                "cells": _history_cells(note.cells, codes, page_lang),
            }
            for note in entry.notes
        ],
        "following": [
            {
                "code": code,
                "name": languages.name(code),
                "state": entry.following[code].state,
                "label": _following_label(entry.following[code]),
            }
            for code in codes
            if code in entry.following
        ],
    }
    if part := entry.part_change:
        shown["part_change"] = (Part(part[0]).label, Part(part[1]).label)
    if bullet := entry.bullet_change:
        shown["bullet_change"] = bullet
    return shown


def _history_status_label(status):
    if status == "first":
        return _("As first recorded here")
    if status == "renamed":
        return _("Renamed")
    return status_label(status)


def paragraph_or_redirect(request, number, key, url_name):
    """(section, paragraph, None) for the paragraph `key` of section `number`; (…, redirect) to its current key when
    `key` is one it had before a rename (301, the query kept); Http404 when no paragraph of the section has it."""
    section = Section.objects.filter(number=number).first()
    paragraph, current = paragraph_at(section, key) if section else (None, False)
    if paragraph is None:
        raise Http404(_("There is no such paragraph in the IPG."))
    if not current:
        url = reverse(url_name, kwargs={"number": number, "key": paragraph.key})
        query = request.META.get("QUERY_STRING", "")
        return section, paragraph, HttpResponsePermanentRedirect(url + (f"?{query}" if query else ""))
    return section, paragraph, None


@require_safe
def paragraph_history(request, number, key):
    """`/<lang>/ipg/<number>/<key>/history/`: every release in effect in which the paragraph or its notes changed,
    newest first, in the reader's languages (`?langs=`)."""
    section, paragraph, redirect = paragraph_or_redirect(request, number, key, "history:paragraph")
    if redirect:
        return redirect
    codes, redirect = compare.in_url(request)
    if redirect:
        return redirect
    page_lang = get_language()
    codes = codes or [page_lang]
    title = section.title_in(page_lang)
    with translation.override(page_lang):
        paragraph_url = reverse("study:paragraph", kwargs={"number": number, "key": paragraph.key})
    query = f"?langs={compare.serialize(codes)}" if len(codes) > 1 or codes != [page_lang] else ""
    context = {
        "section": section,
        "paragraph": paragraph,
        "title": title or section.title_en,
        "title_lang": languages.html_lang(page_lang if title else "en"),
        "paragraph_url": paragraph_url + query,
        "entries": [_history_entry(entry, codes, page_lang) for entry in history.history_of(paragraph)],
        "codes": codes,
        "comparing": len(codes) > 1,
        "columns": [(code, languages.html_lang(code), languages.name(code)) for code in codes],
        "slots": codes + [""] * (len(languages.CODES) - len(codes)),
        "all_languages": [(code, languages.name(code)) for code in languages.CODES],
    }
    return render(request, "releases/history.html", context)
