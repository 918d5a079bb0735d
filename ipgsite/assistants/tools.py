"""What the MCP server's tools answer, as plain data: every text exactly as stored, its language, whether it is official
text or commentary, its lag and the citation and link of its paragraph (`quoting`).

A tool raises ToolError for arguments it cannot use; the server answers that as a tool error (`isError`), which the
assistant reads and can correct, never as a failure of the server.
"""

from dataclasses import asdict

from django.http import Http404
from django.urls import reverse
from django.utils import translation

from ipgsite.finder.graph import Graph
from ipgsite.finder.views import MAX_DEPTH
from ipgsite.ipg import compare, languages
from ipgsite.ipg.models import PARAGRAPH_ADDRESS, Penalty, Section
from ipgsite.releases.comparisons import compared_sections
from ipgsite.releases.models import Release, parse_date
from ipgsite.search.finding import SectionNames, find
from ipgsite.search.query import MAX_LENGTH, Query

from .quoting import NotFound, quote_paragraph, quote_section

MAX_KEY = 64


class ToolError(Exception):
    """Arguments a tool cannot use: the message says what to send instead."""


# Arguments


def _string(arguments, name, required=True, limit=MAX_LENGTH):
    value = arguments.get(name)
    if value is None or value == "":
        if required:
            raise ToolError(f"`{name}` is required.")
        return ""
    if not isinstance(value, str):
        raise ToolError(f"`{name}` must be a string.")
    if "\x00" in value:
        raise ToolError(f"`{name}` must not contain NUL characters.")
    if len(value) > limit:
        raise ToolError(f"`{name}` is at most {limit} characters long.")
    return value.strip()


def _languages(arguments, name="languages"):
    """The languages asked for: a list or a comma-separated string of en, zh-hans, ja; English by default."""
    value = arguments.get(name)
    if value in (None, "", []):
        return [languages.OFFICIAL]
    if isinstance(value, str):
        value = value.split(",")
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value) or len(value) > 10:
        raise ToolError(f"`{name}` is a list of languages: {', '.join(languages.CODES)}.")
    codes = compare.parse(",".join(value)[:200])
    if not codes:
        raise ToolError(f"`{name}` names no language this site has: use {', '.join(languages.CODES)}.")
    return codes


def _language(arguments):
    value = _string(arguments, "language", required=False, limit=20)
    if not value:
        return None
    codes = compare.parse(value)
    if len(codes) != 1:
        raise ToolError(f"`language` is one of {', '.join(languages.CODES)}.")
    return codes[0]


def _date(arguments, name, required=False):
    value = _string(arguments, name, required=required, limit=40)
    if value and parse_date(value) is None:
        raise ToolError(f"`{name}` is a release's date written as YYYY-MM-DD, e.g. 2024-09-23.")
    return value or None


def _section_number(arguments):
    value = _string(arguments, "section", limit=200)
    if Section.objects.filter(number=value).exists():
        return value
    named = SectionNames().named_by(value)  # "hce", "Hidden Card Error", "非公开牌张失误"
    if named is None:
        raise ToolError(f"No section of the IPG is numbered or named {value!r} (or several are): try 2.3 or hce.")
    return named.number


# Results


def _quoted_paragraph(paragraph):
    data = asdict(paragraph)
    for quote in data["texts"]:
        quote.pop("source"), quote.pop("original")
    return data


def _section_result(quoted):
    return {
        "section": quoted.number,
        "title": {code: quoted.title.get(code) for code in languages.CODES},
        "penalty": quoted.penalty or None,
        "release": quoted.release,
        "url": quoted.url,
        "paragraphs": [_quoted_paragraph(p) for p in quoted.paragraphs],
    }


# The tools


def search_ipg(request, arguments):
    query = _string(arguments, "query")
    language = _language(arguments)
    parsed = Query.parse(query, [language] if language else [])
    if not parsed.terms:
        raise ToolError("`query` has no word to search for.")
    results = find(parsed, language or languages.OFFICIAL)
    found = []
    for group in results.groups:
        by_language = {}
        for hit in group.hits:
            by_language.setdefault(hit.language, []).append(hit)
        for code, hits in by_language.items():
            keys = list(dict.fromkeys(hit.key for hit in hits))
            quoted = quote_section(request, group.section.number, [code], keys=keys)
            for paragraph in quoted.paragraphs:
                matched = [hit for hit in hits if hit.key == paragraph.key]
                found.append(
                    {
                        "matched_in": sorted({"commentary" if hit.is_note else "official" for hit in matched}),
                        **_quoted_paragraph(paragraph),
                    }
                )
    return {
        "query": parsed.text,
        "language": language,
        "total": results.total,
        "sections_named": [section.number for section in results.sections],
        "results": found,
        "partial": results.partial,
    }


def get_paragraph(request, arguments):
    number = _section_number(arguments)
    key = _string(arguments, "key", limit=MAX_KEY).lower()
    codes = _languages(arguments)
    release = _date(arguments, "release")
    try:
        return _quoted_paragraph(quote_paragraph(request, number, key, codes, release))
    except NotFound as missing:
        raise ToolError(str(missing)) from None


def get_section(request, arguments):
    number = _section_number(arguments)
    codes = _languages(arguments)
    release = _date(arguments, "release")
    try:
        return _section_result(quote_section(request, number, codes, release))
    except NotFound as missing:
        raise ToolError(str(missing)) from None


def list_sections(request, arguments):
    code = _language(arguments) or languages.OFFICIAL
    with_text = set(Section.objects.with_text().values_list("pk", flat=True))
    sections = []
    for section in Section.objects.in_reading_order():
        with translation.override(code):
            url = request.build_absolute_uri(section.get_absolute_url())
        sections.append(
            {
                "section": section.number,
                "title": section.title_in(code) or None,
                "title_en": section.title_en,
                "penalty": section.penalty or None,
                "has_text": section.pk in with_text,
                "url": url,
            }
        )
    return {"language": code, "sections": sections}


def _wording(text_in, codes):
    return [{"language": code, "text": text_in(code) or None} for code in codes]


def finder_step(request, arguments):
    answers = arguments.get("answers", [])
    if isinstance(answers, str):
        answers = [a for a in answers.split("/") if a]
    if not isinstance(answers, list) or not all(isinstance(a, str) and len(a) <= MAX_KEY for a in answers):
        raise ToolError('`answers` is a list of answer keys, from the first question on (e.g. ["in-game"]).')
    if len(answers) > MAX_DEPTH:
        raise ToolError(f"`answers` has at most {MAX_DEPTH} answers.")
    codes = _languages(arguments)
    graph = Graph.stored()
    try:
        step = graph.walk(tuple(answers))
    except Http404:
        raise ToolError(f"No step of the finder follows the answers {answers!r}: start again from [].") from None
    with translation.override(codes[0]):
        page = reverse("finder:step", kwargs={"answers": "/".join(answers)}) if answers else reverse("finder:start")
    result = {"answers": list(answers), "url": request.build_absolute_uri(page)}
    node = step.node
    cites = node.cites
    if step.is_outcome:
        section = node.section
        result["outcome"] = {
            "section": section.number,
            "title": {code: section.title_in(code) or None for code in codes},
            "penalty": str(Penalty(section.penalty).label) if section.penalty else None,
        }
    else:
        result["question"] = {
            "key": node.key,
            "text": _wording(node.text_in, codes),
            "answers": [
                {"key": choice["key"], "label": _wording(lambda c, i=i: node.answers_in(c)[i], codes)}
                for i, choice in enumerate(node.choices)
            ],
        }
    result["cites"] = []
    for cite in cites:
        match = PARAGRAPH_ADDRESS.fullmatch(cite)
        if match is None:
            continue
        try:
            quoted = quote_paragraph(request, match["number"], match["key"], codes)
        except NotFound:
            continue
        result["cites"].append(_quoted_paragraph(quoted))
    return result


def what_changed(request, arguments):
    older_date, newer_date = _date(arguments, "from", required=True), _date(arguments, "to", required=True)
    codes = _languages(arguments)
    in_effect = {r.date.isoformat(): r for r in Release.objects.in_effect()}
    missing = [d for d in (older_date, newer_date) if d not in in_effect]
    if missing:
        dates = ", ".join(sorted(in_effect)) or "none yet"
        raise ToolError(f"No release of {missing[0]} is in effect; the releases are: {dates}.")
    older, newer = in_effect[older_date], in_effect[newer_date]
    if older == newer:
        raise ToolError("`from` and `to` must be two different releases.")
    if older.date > newer.date:
        older, newer = newer, older
    sections = []
    for compared in compared_sections(older, newer):
        stored = compared.changes
        changes = []
        for item in stored["items"]:
            with translation.override(codes[0]):
                page = reverse("study:paragraph", kwargs={"number": compared.number, "key": item["key"]})
            changes.append(
                {
                    "key": item["key"],
                    "kind": "official" if item["note"] is None else "commentary",
                    "note": item["note"],
                    "status": item["status"],
                    "moved": item["moved"],
                    "changed_in": item["changed_in"],
                    "diffs": [
                        {
                            "language": code,
                            "unchanged": item["cells"][code]["unchanged"],
                            "diff_html": item["cells"][code]["html"] or None,
                        }
                        for code in codes
                    ],
                    "url": request.build_absolute_uri(f"{page}?release={newer.date.isoformat()}")
                    if item["status"] != "removed"
                    else None,
                }
            )
        sections.append(
            {
                "section": compared.number,
                "status": stored["status"],
                "title": {code: stored["title"].get(code) for code in codes},
                "penalty_change": stored["penalty_change"],
                "changes": changes,
            }
        )
    with translation.override(codes[0]):
        page = reverse("releases:changes") + f"?from={older.date.isoformat()}&to={newer.date.isoformat()}"
    return {
        "from": older.date.isoformat(),
        "to": newer.date.isoformat(),
        "diff_format": "HTML: removed words in <del>, added words in <ins>, everything else escaped",
        "sections": sections,
        "url": request.build_absolute_uri(page),
    }


LANGUAGES_SCHEMA = {
    "type": "array",
    "items": {"type": "string", "enum": list(languages.CODES)},
    "description": "The languages to quote, in order (default: English). A missing translation is said missing.",
}
RELEASE_SCHEMA = {
    "type": "string",
    "pattern": r"^\d{4}-\d{2}-\d{2}$",
    "description": "A release's effective date: the text as that release froze it (default: the current text).",
}
SECTION_SCHEMA = {"type": "string", "description": "A section's number (2.3) or name (hce, Hidden Card Error)."}
READ_ONLY = {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False}

TOOLS = {
    "search_ipg": (
        search_ipg,
        {
            "title": "Search the IPG",
            "description": "Find the paragraphs and commentary that contain words, in English, Simplified Chinese or "
            "Japanese. Each result quotes the paragraph exactly, in the language it matched, with its citation.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "query": {"type": "string", "maxLength": MAX_LENGTH, "description": 'Words or a "phrase".'},
                    "language": {"type": "string", "enum": list(languages.CODES), "description": "Only this one."},
                },
                "required": ["query"],
            },
        },
    ),
    "get_paragraph": (
        get_paragraph,
        {
            "title": "Quote one paragraph",
            "description": "One paragraph of the IPG, exactly, in the languages asked for, with its commentary "
            "marked as commentary, its translations' lag, its citation and its link.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "section": SECTION_SCHEMA,
                    "key": {"type": "string", "description": "The paragraph's key: definition-1, example-c."},
                    "languages": LANGUAGES_SCHEMA,
                    "release": RELEASE_SCHEMA,
                },
                "required": ["section", "key"],
            },
        },
    ),
    "get_section": (
        get_section,
        {
            "title": "Quote a section",
            "description": "Every paragraph of one section of the IPG, exactly, in the languages asked for, each "
            "with its commentary, lag, citation and link.",
            "inputSchema": {
                "type": "object",
                "properties": {"section": SECTION_SCHEMA, "languages": LANGUAGES_SCHEMA, "release": RELEASE_SCHEMA},
                "required": ["section"],
            },
        },
    ),
    "list_sections": (
        list_sections,
        {
            "title": "List the sections",
            "description": "Every section of the IPG with its title, penalty and whether its text is on this site.",
            "inputSchema": {
                "type": "object",
                "properties": {"language": {"type": "string", "enum": list(languages.CODES)}},
            },
        },
    ),
    "finder_step": (
        finder_step,
        {
            "title": "Walk the infraction finder",
            "description": "From what happened to the infraction it is, one question at a time: send the answer keys "
            "chosen so far ([] for the first question); the answer is the next question, or the infraction, with "
            "the paragraphs that justify it quoted.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "answers": {"type": "array", "items": {"type": "string"}, "maxItems": MAX_DEPTH},
                    "languages": LANGUAGES_SCHEMA,
                },
            },
        },
    ),
    "what_changed": (
        what_changed,
        {
            "title": "What changed between two releases",
            "description": "Section by section, each paragraph and note that changed from one release to another, "
            "word by word, with a link to the paragraph as the later release froze it.",
            "inputSchema": {
                "type": "object",
                "properties": {"from": RELEASE_SCHEMA, "to": RELEASE_SCHEMA, "languages": LANGUAGES_SCHEMA},
                "required": ["from", "to"],
            },
        },
    ),
}


def tool_list():
    return [{"name": name, **described, "annotations": READ_ONLY} for name, (_run, described) in TOOLS.items()]
