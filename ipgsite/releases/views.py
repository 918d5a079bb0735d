"""What changed: the releases, newest first, and each release's changes since the one before."""

from django.http import Http404, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from ipgsite.ipg import compare, languages
from ipgsite.ipg.models import Part, Penalty, Section

from .diffing import diff_html
from .models import Release, parse_date
from .snapshots import changed_section_count, changes_between


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
    code = get_language()
    items = [
        {"release": release, "title": release.title_in(code), "count": count}
        for release, count in releases_with_counts()
    ]
    return render(request, "releases/changes.html", {"items": items})


def _cell(code, old, new, missing_in=None):
    """One language's side of a change: its diff, or its text when it did not change. `missing_in`: the
    page's language, which has no text here, so the change is shown in `code` instead."""
    cell = {"code": code, "lang": languages.html_lang(code), "name": languages.name(code), "missing_in": missing_in}
    if old == new:
        cell.update(unchanged=True, html=escape(new), empty=not new)
    else:
        cell.update(unchanged=False, html=diff_html(old, new), empty=False)
    return cell


def _status_label(status):
    return {
        "added": _("Added"),
        "removed": _("Removed"),
        "changed": _("Changed"),
        "moved": _("Moved"),
    }[status]


def _item(change, codes, section_url):
    current = change.current
    item = {
        "key": change.key,
        "status": change.status,
        "status_label": _status_label(change.status),
        "moved": change.moved and change.status != "moved",
        "url": f"{section_url}#{change.key}" if section_url else None,
        "note": change.note,
        "cells": [_cell(code, change.text("old", code), change.text("new", code)) for code in codes],
    }
    changed_in = change.changed_in()
    if len(codes) == 1 and item["cells"][0]["empty"] and changed_in:
        # Like the section page: a change with no text in the page's language is shown in one that has it.
        shown = changed_in[0]
        item["cells"] = [
            _cell(shown, change.text("old", shown), change.text("new", shown), missing_in=languages.name(codes[0]))
        ]
    if change.note is None:
        item["part"] = Part(current["part"]).label
        if part := change.attribute("part"):
            item["part_change"] = (Part(part[0]).label, Part(part[1]).label)
        if bullet := change.attribute("bullet"):
            item["bullet_change"] = bullet
    else:
        item["source"] = current["source"]
        item["note_language"] = languages.name(current["language"])
    return item


def _penalty_label(penalty):
    return Penalty(penalty).label if penalty else _("none")


def _section(change, codes, page_lang, existing):
    with translation.override(page_lang):
        url = reverse("ipg:section", kwargs={"number": change.number})
    title = change.title(page_lang)
    section = {
        "number": change.number,
        "status": change.status,
        "status_label": _status_label(change.status),
        "title": title or change.title("en"),
        "title_lang": languages.html_lang(page_lang if title else "en"),
        "url": url if change.number in existing else None,
        "items": [_item(c, codes, url if change.number in existing else None) for c in change.changes],
    }
    if titles := change.title_change:
        section["title_cells"] = [_cell(code, titles[0].get(code, ""), titles[1].get(code, "")) for code in codes]
    if penalties := change.penalty_change:
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
    sections = [_section(change, codes, page_lang, existing) for change in changes_between(previous, release)]
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
