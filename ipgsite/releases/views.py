"""What changed: the releases, newest first, and each release's changes since the one before."""

from django.http import Http404, HttpResponsePermanentRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from ipgsite.ipg import compare, languages
from ipgsite.ipg.models import Part, Penalty, Section, paragraph_at

from . import comparisons, history
from .lags import lag_html, lags_in_release
from .models import Release, parse_date
from .snapshots import changed_section_count


def releases_with_counts():
    """[(release, changed sections or None for the first)] of the releases in effect, newest first."""
    releases = list(Release.objects.in_effect().newest_first())
    return [
        (release, changed_section_count(older, release) if older else None)
        for release, older in zip(releases, releases[1:] + [None], strict=True)
    ]


def release_in_effect(date):
    effective = parse_date(date)
    release = Release.objects.in_effect().filter(date=effective).first() if effective else None
    if release is None:
        raise Http404("No such release")
    return release


@require_safe
def changes(request):
    if "from" in request.GET or "to" in request.GET:
        return comparison(request)
    code = get_language()
    items = [
        {"release": release, "title": release.title_in(code), "count": count}
        for release, count in releases_with_counts()
    ]
    context = {"items": items, **_comparison_form([item["release"] for item in reversed(items)])}
    return render(request, "releases/changes.html", context)


def _cell(code, stored, missing_in=None):
    """One language's side of a change as it was recorded (`releases.changes.cell`). `missing_in`: the page's
    language, which has no text here, so the change is shown in `code` instead."""
    return {
        "code": code,
        "lang": languages.html_lang(code),
        "name": languages.name(code),
        "missing_in": missing_in,
        "unchanged": stored["unchanged"],
        "empty": stored["empty"],
        "html": mark_safe(stored["html"]),  # escaped, with <del> and <ins>, when it was recorded
    }


def _status_label(status):
    return {
        "added": _("Added"),
        "removed": _("Removed"),
        "changed": _("Changed"),
        "moved": _("Moved"),
    }[status]


def _item(change, codes, section_url):
    item = {
        "key": change["key"],
        "status": change["status"],
        "status_label": _status_label(change["status"]),
        "moved": change["moved"] and change["status"] != "moved",
        "url": f"{section_url}#{change['key']}" if section_url else None,
        "note": change["note"],
        "cells": [_cell(code, change["cells"][code]) for code in codes],
    }
    changed_in = change["changed_in"]
    own, source = change["cells"][codes[0]], change["cells"][languages.SOURCE]
    if len(codes) == 1 and codes[0] != languages.SOURCE and own["unchanged"] and not own["empty"]:
        if not source["unchanged"]:  # only the English changed: show how, and (`_section`) whether this now lags
            item["source_cell"] = _cell(languages.SOURCE, source)
    if len(codes) == 1 and item["cells"][0]["empty"] and changed_in:
        # Like the section page: a change with no text in the page's language is shown in one that has it.
        shown = changed_in[0]
        item["cells"] = [_cell(shown, change["cells"][shown], missing_in=languages.name(codes[0]))]
    if change["note"] is None:
        item["part"] = Part(change["part"]).label
        if part := change["part_change"]:
            item["part_change"] = (Part(part[0]).label, Part(part[1]).label)
        if bullet := change["bullet_change"]:
            item["bullet_change"] = bullet
    else:
        item["source"] = change["source"]
        item["note_language"] = languages.name(change["language"])
    return item


def _penalty_label(penalty):
    return Penalty(penalty).label if penalty else _("none")


def _section(changed, codes, page_lang, existing):
    """A `ChangedSection` as the page shows it in `codes`."""
    with translation.override(page_lang):
        url = reverse("ipg:section", kwargs={"number": changed.number})
    stored = changed.changes
    title = stored["title"].get(page_lang, "")
    url = url if changed.number in existing else None
    section = {
        "number": changed.number,
        "status": stored["status"],
        "status_label": _status_label(stored["status"]),
        "title": title or stored["title"].get("en", ""),
        "title_lang": languages.html_lang(page_lang if title else "en"),
        "url": url,
        "items": [_item(change, codes, url) for change in stored["items"]],
    }
    if any("source_cell" in item for item in section["items"]):
        lags = lags_in_release(changed.release.date.isoformat(), changed.number)
        for item in section["items"]:
            if "source_cell" in item:
                held = lags.notes.get((item["key"], item["note"])) if item["note"] else lags.paragraphs.get(item["key"])
                lag = (held or {}).get(codes[0])
                item["lag"] = lag_html(lag) if lag else ""
    if cells := stored["title_cells"]:
        section["title_cells"] = [_cell(code, cells[code]) for code in codes]
    if penalties := stored["penalty_change"]:
        section["penalty_change"] = tuple(_penalty_label(p) for p in penalties)
    return section


@require_safe
def release(request, date):
    release = release_in_effect(date)
    codes, redirect = compare.in_url(request)
    if redirect:
        return redirect
    codes = codes or [get_language()]
    page_lang = get_language()
    previous = release.previous()
    existing = set(Section.objects.values_list("number", flat=True))
    # Computed when the release was published or loaded (`releases.changes`): no diff is run here.
    sections = [_section(changed, codes, page_lang, existing) for changed in release.changed_sections.all()]
    context = {
        "release": release,
        "title": release.title_in(page_lang),
        "previous": previous,
        "sections": sections,
        "codes": codes,
        "comparing": len(codes) > 1,
        "columns": [(code, languages.html_lang(code), languages.name(code)) for code in codes],
        "slots": codes + [""] * (len(languages.CODES) - len(codes)),
        "all_languages": [(code, languages.name(code)) for code in languages.CODES],
    }
    return render(request, "releases/release.html", context)


@require_safe
def api_releases(request):
    """The releases in effect as JSON, newest first."""
    releases = []
    for release, count in releases_with_counts():
        pages = {}
        for code in languages.CODES:
            with translation.override(code):
                pages[code] = request.build_absolute_uri(release.get_absolute_url())
        releases.append(
            {
                "date": release.date.isoformat(),
                "title": {code: release.title_in(code) or None for code in languages.CODES},
                "announcement": {
                    code: languages.translated(release, "announcement", code) or None for code in languages.CODES
                },
                "first": count is None,
                "changed_sections": count,
                "changes": pages,
            }
        )
    return JsonResponse({"releases": releases}, json_dumps_params={"ensure_ascii": False})


# One paragraph across the releases


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
    shown = [_cell(code, cells[code]) for code in codes]
    if len(codes) == 1 and shown[0]["empty"]:
        changed = [code for code in languages.CODES if not cells[code]["empty"]]
        if changed:
            shown = [_cell(changed[0], cells[changed[0]], missing_in=languages.name(page_lang))]
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
    return _status_label(status)


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


# Any two releases


def _comparison_form(releases, chosen=("", "")):
    return {
        "releases": [release.date.isoformat() for release in releases],
        "chosen_from": chosen[0],
        "chosen_to": chosen[1],
    }


@require_safe
def comparison(request):
    """`/<lang>/changes/?from=DATE&to=DATE`: what changed between any two releases in effect, section by section."""
    in_effect = list(Release.objects.in_effect().order_by("date"))
    try:
        older, newer, redirect = comparisons.releases_compared(request)
    except comparisons.BadComparison as bad:
        context = {"message": str(bad), **_comparison_form(in_effect)}
        return render(request, "releases/bad_comparison.html", context, status=400)
    if redirect:
        return redirect
    codes, redirect = compare.in_url(request)
    if redirect:
        return redirect
    codes = codes or [get_language()]
    page_lang = get_language()
    existing = set(Section.objects.values_list("number", flat=True))
    compared = comparisons.compared_sections(older, newer)
    context = {
        "older": older,
        "newer": newer,
        "between": [release for release in in_effect if older.date < release.date <= newer.date],
        "sections": [_section(changed, codes, page_lang, existing) for changed in compared],
        "codes": codes,
        "comparing": len(codes) > 1,
        "columns": [(code, languages.html_lang(code), languages.name(code)) for code in codes],
        "slots": codes + [""] * (len(languages.CODES) - len(codes)),
        "all_languages": [(code, languages.name(code)) for code in languages.CODES],
        "keep": [("from", older.date.isoformat()), ("to", newer.date.isoformat())],
        **_comparison_form(in_effect, (older.date.isoformat(), newer.date.isoformat())),
    }
    return render(request, "releases/comparison.html", context)
