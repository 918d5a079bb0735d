"""The IPG as Markdown for assistants and their readers: a section page's or a paragraph page's text, official text
and commentary kept apart and marked, a missing translation said missing, each paragraph with its citation and
link; and `/llms.txt` (llmstxt.org), which lists them.

Texts are quoted exactly as stored (they are Markdown already); commentary is set in a block quote under a line that
says it is commentary, not official text. The words around them are the site's own, in the page's language.
"""

from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from ipgsite.ipg import languages
from ipgsite.ipg.models import Part, Penalty, Section

from .quoting import COMMENTARY


def _indented(text, prefix):
    return "\n".join(f"{prefix}{line}".rstrip() for line in text.splitlines() or [""])


def _language(code):
    return f"{languages.called(code)} ({code})"


def _lag_line(lag):
    if lag is None:
        return ""
    if lag["follows"] == "unknown":
        return _("translated from an older original that no release here holds")
    return _("translated from an older original: the one of the release of %(date)s") % {"date": lag["follows"]}


def _quote_lines(quote, bullet=False, available=()):
    if quote.kind == COMMENTARY:
        head = [_("Commentary, not official text"), quote.source, _language(quote.language)]
    else:
        head = [_language(quote.language), _("official text")]
    if lag := _lag_line(quote.lag):
        head.append(lag)
    label = " · ".join(part for part in head if part)
    if quote.text is None:
        values = {"language": languages.called(quote.language), "available": ", ".join(map(_language, available))}
        if available:
            missing = _("Not yet translated into %(language)s. Available in: %(available)s.") % values
        else:
            missing = _("Not yet translated into %(language)s.") % values
        body = f"*{missing}*"
    else:
        body = quote.text.strip()
        if bullet:
            body = _indented(body, "  ").replace("  ", "- ", 1)
    lines = [f"**{label}**", "", body]
    if quote.kind == COMMENTARY:
        return [_indented("\n".join(lines), "> ")]
    return lines


def paragraph_lines(paragraph, level=3):
    lines = [f"{'#' * level} {paragraph.name} · `{paragraph.key}`", ""]
    cite = _("Cite:")
    lines += [f"{cite} {paragraph.citation} — <{paragraph.url}>", ""]
    for quote in paragraph.texts:
        lines += [*_quote_lines(quote, bullet=paragraph.bullet, available=paragraph.languages), ""]
    for note in paragraph.notes:
        for quote in note:
            lines += [*_quote_lines(quote), ""]
    return lines


def _header(title, number, penalty, release, url):
    ipg, penalty_label, page = _("IPG"), _("Penalty"), _("Page")
    lines = [f"# {ipg} {number} {title}", ""]
    if penalty:
        lines.append(f"- {penalty_label}: {Penalty(penalty).label}")
    if release:
        lines.append("- " + _("As the release of %(date)s froze it") % {"date": release})
    else:
        lines.append("- " + _("The current text"))
    lines += [
        f"- {page}: <{url}>",
        "- "
        + _(
            "Official text is quoted exactly as written. Commentary from annotated editions is marked as commentary: "
            "it is not part of the IPG."
        ),
        "",
    ]
    return lines


def section_markdown(quoted, code):
    title = quoted.title.get(code) or quoted.title.get(languages.OFFICIAL, "")
    lines = _header(title, quoted.number, quoted.penalty, quoted.release, quoted.url)
    if not quoted.paragraphs:
        lines += [_("The text of this section is not available yet."), ""]
    part = None
    for paragraph in quoted.paragraphs:
        if paragraph.part != part:
            part = paragraph.part
            if part != Part.TEXT:
                lines += [f"## {Part(part).label}", ""]
        lines += paragraph_lines(paragraph)
    return "\n".join(lines).rstrip() + "\n"


def paragraph_markdown(quoted_section_title, penalty, paragraph, section_url):
    ipg, section_label, penalty_label = _("IPG"), _("Section"), _("Penalty")
    lines = [f"# {ipg} {paragraph.section} {paragraph.name}", ""]
    lines.append(f"- {section_label}: {paragraph.section} {quoted_section_title} — <{section_url}>")
    if penalty:
        lines.append(f"- {penalty_label}: {Penalty(penalty).label}")
    lines += [
        "- "
        + _(
            "Official text is quoted exactly as written. Commentary from annotated editions is marked as commentary: "
            "it is not part of the IPG."
        ),
        "",
    ]
    lines += paragraph_lines(paragraph, level=2)
    return "\n".join(lines).rstrip() + "\n"


def llms_txt(request):
    """/llms.txt (llmstxt.org): what this site is, its promise that addresses never change, and its Markdown pages."""
    absolute = request.build_absolute_uri
    with translation.override("en"):
        lines = [
            "# Infraction Procedure Guide (IPG) reference",
            "",
            "> The Magic: The Gathering Infraction Procedure Guide in English, Simplified Chinese and Japanese, "
            "aligned paragraph by paragraph, with the commentary of annotated editions kept apart from the official "
            "text.",
            "",
            "Quote the IPG's exact words, with their citation and link, rather than from memory. Every section has a "
            "Markdown version at `/<language>/ipg/<number>/index.md`, and every paragraph at "
            "`/<language>/ipg/<number>/<key>/index.md` (or ask for the page's own address with "
            "`Accept: text/markdown`). Add `?langs=en,ja` for several languages side by side, `?release=YYYY-MM-DD` "
            "for the text as a release froze it. A translation that is missing is said to be missing: it is never "
            "replaced by another language's text. Commentary is marked as commentary; it is not part of the IPG.",
            "",
            "**Addresses never change.** A paragraph's key (`definition-2`, `example-c`) is the same in every "
            "language and stays its address: if a key must change, the old address keeps leading to the paragraph "
            "(301), and `?release=` keeps leading to the text that release froze.",
            "",
            f"An MCP server (Streamable HTTP, read-only, no sign-in) is at <{absolute(reverse('assistants:mcp'))}>; "
            f"the JSON API is described at <{absolute(reverse('api:openapi'))}>.",
            "",
        ]
    sections = list(Section.objects.in_reading_order())
    with_text = set(Section.objects.with_text().values_list("pk", flat=True))
    for code in languages.CODES:
        with translation.override(code):
            lines += [f"## {languages.name(code)} ({code})", ""]
            for section in sections:
                title = section.title_in(code) or section.title_en
                url = absolute(reverse("markdown:section", kwargs={"number": section.number}))
                notes = [str(Penalty(section.penalty).label) if section.penalty else ""]
                if section.pk not in with_text:
                    notes.append(_("The text of this section is not available yet."))
                note = " — ".join(n for n in notes if n)
                lines.append(f"- [{section.number} {title}]({url})" + (f": {note}" if note else ""))
            lines.append("")
    with translation.override("en"):
        lines += [
            "## Optional",
            "",
            f"- [What changed in each release]({absolute(reverse('releases:changes'))}): the releases, newest first",
            f"- [The JSON API]({absolute(reverse('api:openapi'))}): OpenAPI 3.1",
            "",
        ]
    return "\n".join(lines)
