"""What changed: the releases, newest first, and each release's changes since the one before."""

from django.http import Http404, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from ipgsite.ipg import compare, languages
from ipgsite.ipg.models import Part, Penalty, Section

from . import comparisons
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


def cell(code, stored, missing_in=None):
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


def status_label(status):
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
        "status_label": status_label(change["status"]),
        "moved": change["moved"] and change["status"] != "moved",
        "url": f"{section_url}#{change['key']}" if section_url else None,
        "note": change["note"],
        "cells": [cell(code, change["cells"][code]) for code in codes],
    }
    changed_in = change["changed_in"]
    own, source = change["cells"][codes[0]], change["cells"][languages.SOURCE]
    if len(codes) == 1 and codes[0] != languages.SOURCE and own["unchanged"] and not own["empty"]:
        if not source["unchanged"]:  # only the English changed: show how, and (`_section`) whether this now lags
            item["source_cell"] = cell(languages.SOURCE, source)
    if len(codes) == 1 and item["cells"][0]["empty"] and changed_in:
        # Like the section page: a change with no text in the page's language is shown in one that has it.
        shown = changed_in[0]
        item["cells"] = [cell(shown, change["cells"][shown], missing_in=languages.name(codes[0]))]
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
        "status_label": status_label(stored["status"]),
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
        section["title_cells"] = [cell(code, cells[code]) for code in codes]
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
