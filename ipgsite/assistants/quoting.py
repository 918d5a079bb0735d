"""The IPG as assistants quote it: each text exactly as stored, in its language, marked official text or
commentary, with its lag (a translation that follows an older original) and the citation and link of the paragraph.

The Markdown pages (`markdown.py`) and the MCP server (`mcp.py`) read only this, so both say the same: a missing
translation is said missing and never replaced by another language's text.
"""

from dataclasses import dataclass, field

from django.http import Http404
from django.utils import translation

from ipgsite.ipg import languages, versions
from ipgsite.ipg.models import FormerKey, Section, paragraph_at
from ipgsite.ipg.reading import paragraphs_with_notes
from ipgsite.releases.lags import lags_in
from ipgsite.releases.models import Release
from ipgsite.releases.snapshots import section_as_of
from ipgsite.study import citing

OFFICIAL = "official"
COMMENTARY = "commentary"


class NotFound(Exception):
    """No such section, paragraph or release: the message says which."""


@dataclass
class Quote:
    """One text in one language."""

    language: str
    kind: str  # OFFICIAL or COMMENTARY
    text: str | None  # as stored (Markdown); None where it is missing in this language
    lag: dict | None = None  # {"follows": date or "unknown", "changes": HTML}: follows an older original
    source: str = ""  # a note's source (the annotated edition it comes from)
    original: str = ""  # a note's: the language it was written in


@dataclass
class QuotedParagraph:
    section: str
    key: str
    part: str
    label: str  # an example's letter, else ""
    name: str  # "Example C", "Definition, paragraph 2", in the language of the request
    bullet: bool
    release: str | None  # the release it is quoted from; None for the current text
    citation: str  # "IPG 2.3 Example C (2024-09-23)", in the language of the request
    url: str  # its permanent link (that release's text, or the current page)
    texts: list = field(default_factory=list)  # [Quote], one per language asked for
    languages: list = field(default_factory=list)  # the languages it has text in
    notes: list = field(default_factory=list)  # [[Quote]]: each note in the languages asked for it has


@dataclass
class QuotedSection:
    number: str
    title: dict  # {code: title}
    penalty: str
    release: str | None
    url: str
    paragraphs: list = field(default_factory=list)  # [QuotedParagraph]


def section_named(number):
    section = Section.objects.filter(number=number).first()
    if section is None:
        raise NotFound(f"There is no section {number!r} in the IPG.")
    return section


def _version(number, release):
    """Section `number` as `release` froze it, found in the release alone (None for the current text)."""
    if not release:
        return None
    try:
        return versions.version_of(number, release)
    except Http404:
        raise NotFound(f"There is no release {release!r} in effect holding section {number}.") from None


def section_in(number, release=None):
    """(the section, or the release's stand-in for it; the release's version or None)."""
    version = _version(number, release)
    return (version.section if version else section_named(number)), version


class _Citations:
    """Each paragraph's citation in one language: the newest release whose text in that language is the one quoted
    (read once per section), as `study.citing.release_quoted` says for one paragraph."""

    def __init__(self, section, version):
        self.version = version
        self.newest = None
        if version is None:
            release = Release.objects.in_effect().order_by("-date").first()
            content = section_as_of(release, section.number) if release else None
            if content is not None:
                self.newest = (release.date.isoformat(), {p["key"]: p for p in content["paragraphs"]})
        self.former = {}
        if version is None:
            for paragraph_id, key in FormerKey.objects.in_section(section.pk).values_list("paragraph_id", "key"):
                self.former.setdefault(paragraph_id, []).append(key)

    def release_of(self, paragraph, code):
        if self.version is not None:
            return self.version.name
        if self.newest is None:
            return ""
        date, held = self.newest
        keys = [paragraph.key, *self.former.get(paragraph.pk, [])]
        frozen = next((held[k] for k in keys if k in held), None)
        if frozen is None or (frozen["texts"].get(code) or "") != paragraph.text_in(code):
            return ""
        return date


def _lag(lags, obj, code):
    lag = lags.of(obj, code) if lags else None
    if lag is None:
        return None
    return {"follows": lag.release or "unknown", "changes": str(lag.diff) or None}


def _quoted(request, section, paragraph, paragraphs, codes, code, citations, lags):
    place = citing.place_of(paragraphs, paragraph.key)
    release = citations.release_of(paragraph, code)
    with translation.override(code):
        name = citing.paragraph_name(place)
        citation = citing.citation(section.number, place, release)
    notes = []
    for note in sorted(paragraph.notes.all(), key=lambda n: getattr(n, "order", 0)):
        had = [c for c in codes if note.body_in(c)] or [note.language]
        notes.append(
            [
                Quote(
                    language=c,
                    kind=COMMENTARY,
                    text=note.body_in(c),
                    lag=_lag(lags, note, c),
                    source=note.source,
                    original=note.language,
                )
                for c in had
            ]
        )
    return QuotedParagraph(
        section=section.number,
        key=paragraph.key,
        part=paragraph.part,
        label=place.letter,
        name=name,
        bullet=paragraph.bullet,
        release=citations.version.name if citations.version else None,
        citation=citation,
        url=citing.permanent_url(request, section.number, paragraph.key, code, release),
        texts=[
            Quote(language=c, kind=OFFICIAL, text=paragraph.text_in(c) or None, lag=_lag(lags, paragraph, c))
            for c in codes
        ],
        languages=paragraph.languages(),
        notes=notes,
    )


def quote_section(request, number, codes, release=None, keys=None):
    """The section `number` in `codes` (the first one names and cites), current or as `release` froze it; only the
    paragraphs of `keys`, if given."""
    section, version = section_in(number, release)
    paragraphs = version.paragraphs if version else list(paragraphs_with_notes(section))
    lags = None if version else lags_in(section)
    citations = _Citations(section, version)
    code = codes[0]
    with translation.override(code):
        url = request.build_absolute_uri(section.get_absolute_url() + (f"?release={version.name}" if version else ""))
    return QuotedSection(
        number=section.number,
        title=version.title if version else languages.translations(section, "title"),
        penalty=(version.penalty if version else section.penalty) or "",
        release=version.name if version else None,
        url=url,
        paragraphs=[
            _quoted(request, section, p, paragraphs, codes, code, citations, lags)
            for p in paragraphs
            if keys is None or p.key in keys
        ],
    )


def quote_paragraph(request, number, key, codes, release=None):
    """The paragraph `key` (or a key it had before a rename) of section `number`, in `codes`."""
    section, version = section_in(number, release)
    if version:
        found = citing.frozen_paragraph(version, key)
        paragraphs = version.paragraphs
    else:
        found, _current = paragraph_at(section, key)
        paragraphs = list(paragraphs_with_notes(section)) if found else []
        found = next((p for p in paragraphs if found and p.pk == found.pk), None)
    if found is None:
        where = f" in the release of {version.name}" if version else ""
        raise NotFound(f"Section {section.number} has no paragraph {key!r}{where}.")
    lags = None if version else lags_in(section)
    return _quoted(request, section, found, paragraphs, codes, codes[0], _Citations(section, version), lags)
