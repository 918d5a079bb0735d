"""A paragraph's history across the releases, and what changed between two releases, as JSON."""

from django.http import Http404, JsonResponse
from django.urls import reverse
from django.utils import translation
from django.views.decorators.http import require_safe

from ipgsite.ipg import languages
from ipgsite.ipg.models import Section
from ipgsite.releases import comparisons, history
from ipgsite.releases.comparisons import BadComparison, releases_compared
from ipgsite.releases.history_views import paragraph_or_redirect
from ipgsite.releases.models import Release

from .reading import JSON, translations_of


def _cells_data(cells):
    """{code: {"unchanged", "diff"}} of a text's stored cells: the diff as HTML (escaped, <del> and <ins>)."""
    return {code: {"unchanged": c["unchanged"], "diff": c["html"] or None} for code, c in cells.items()}


def _following_data(following):
    return {"state": following.state, "release": following.release or None}


@require_safe
def paragraph_history(request, number, key):
    """A paragraph across the releases in effect, newest first: each release in which it or its notes changed, the
    key it had then, its diffs in every language, and what each translation followed then."""
    try:
        section, paragraph, redirect = paragraph_or_redirect(request, number, key, "api:paragraph-history")
    except Http404:
        return JsonResponse({"error": f"Section {number} has no paragraph {key!r}."}, status=404)
    if redirect:
        return redirect
    entries = []
    for entry in history.history_of(paragraph):
        with translation.override("en"):
            changes_url = request.build_absolute_uri(entry.release.get_absolute_url())
        entries.append(
            {
                "release": entry.release.date.isoformat(),
                "previous": entry.previous.date.isoformat() if entry.previous else None,
                "status": entry.status,
                "key": entry.key,
                "renamed_from": entry.renamed_from or None,
                "part": entry.part,
                "part_change": list(entry.part_change) if entry.part_change else None,
                "bullet_change": list(entry.bullet_change) if entry.bullet_change else None,
                "moved": entry.moved,
                "text": _cells_data(entry.cells) if entry.cells else None,
                "notes": [
                    {
                        "place": note.place,
                        "status": note.status,
                        "language": note.language,
                        "source": note.source,
                        "body": _cells_data(note.cells),
                    }
                    for note in entry.notes
                ],
                "following": {code: _following_data(f) for code, f in entry.following.items()},
                "changes": changes_url,
            }
        )
    pages = {}
    for code in languages.CODES:
        with translation.override(code):
            pages[code] = request.build_absolute_uri(
                reverse("history:paragraph", kwargs={"number": section.number, "key": paragraph.key})
            )
    data = {
        "section": section.number,
        "key": paragraph.key,
        "former_keys": list(paragraph.former_keys.values_list("key", flat=True)),
        "url": request.build_absolute_uri(reverse("api:paragraph", kwargs={"number": number, "key": paragraph.key})),
        "pages": pages,
        "history": entries,
    }
    return JsonResponse(data, json_dumps_params=JSON)


def _changed_section_data(request, compared, existing):
    stored = compared.changes
    page = None
    if compared.number in existing:
        page = request.build_absolute_uri(reverse("api:section", args=[compared.number]))
    return {
        "number": compared.number,
        "status": stored["status"],
        "title": translations_of(stored["title"]),
        "title_change": _cells_data(stored["title_cells"]) if stored["title_cells"] else None,
        "penalty_change": stored["penalty_change"],
        "changes": [
            {
                "key": item["key"],
                "note": item["note"],
                "status": item["status"],
                "moved": item["moved"],
                "part": item.get("part"),
                "part_change": item.get("part_change"),
                "bullet_change": item.get("bullet_change"),
                "language": item.get("language"),
                "source": item.get("source"),
                "changed_in": item["changed_in"],
                "text": _cells_data(item["cells"]),
            }
            for item in stored["items"]
        ],
        "url": page,
    }


@require_safe
def changes(request):
    """What changed between any two releases in effect (`?from=DATE&to=DATE`), section by section, with the diffs the
    changes pages show; computed once per pair and kept."""
    try:
        older, newer, redirect = releases_compared(request)
    except BadComparison as bad:
        return JsonResponse({"error": str(bad)}, status=400)
    except Http404:
        return JsonResponse({"error": "There is no release of that date."}, status=404)
    if redirect:
        return redirect
    existing = set(Section.objects.values_list("number", flat=True))
    pages = {}
    query = f"?from={older.date.isoformat()}&to={newer.date.isoformat()}"
    for code in languages.CODES:
        with translation.override(code):
            pages[code] = request.build_absolute_uri(reverse("releases:changes") + query)
    data = {
        "from": older.date.isoformat(),
        "to": newer.date.isoformat(),
        "releases": [
            r.date.isoformat()
            for r in Release.objects.in_effect().filter(date__gt=older.date, date__lte=newer.date).order_by("date")
        ],
        "sections": [
            _changed_section_data(request, compared, existing)
            for compared in comparisons.compared_sections(older, newer)
        ],
        "pages": pages,
    }
    return JsonResponse(data, json_dumps_params=JSON)
