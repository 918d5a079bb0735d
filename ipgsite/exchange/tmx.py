"""The aligned text of a language pair as TMX 1.4b, the translation memory OmegaT reads from its `tm/` folder and
Trados imports one language direction at a time, and back.

Export: one `tu` per paragraph that has both languages, both current (a translation that follows an older English
is no match for the English beside it), its `tuid` the paragraph's unit id (`2.3#example-c`), the newest release in
effect as the prop `x-release` and the paragraph's revision as the prop `x-ipg-revision` (TMX has no revision of its
own; tools keep a `tu`'s props).

Import reads each `tu` back as a unit: its source is the `tuv` in the header's `srclang` (or the `tu`'s own), its
target the other `tuv`, one target language per file; `inbound` checks and writes them as it does every format's
units. A `tu` without `x-ipg-revision` is checked against its source only.
"""

from xml.etree.ElementTree import Element, SubElement, indent, tostring

from django.utils import timezone
from django.utils.translation import gettext as _

from ipgsite.editing import writing
from ipgsite.editing.models import State, Status
from ipgsite.ipg import languages
from ipgsite.ipg.models import Paragraph
from ipgsite.releases.models import Release

from .inbound import FileError, Format, UnitDoc, file_language, import_file, site_language
from .units import unit_id

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
VERSIONS = ("1.4", "1.4b")
RELEASE = "x-release"
REVISION = "x-ipg-revision"
# Inline elements that hold the native codes of the original format (tags, placeholders), not text.
CODES = {"bpt", "ept", "it", "ph", "ut"}


def current_release():
    return Release.objects.in_effect().newest_first().first()


# Export


def export_tmx(source, target):
    """The paragraphs with current text in both languages, as a TMX 1.4b document (bytes, UTF-8)."""
    release = current_release()
    outdated = set(
        Status.objects.of_paragraphs()
        .filter(language__in=[source, target], state=State.OUTDATED)
        .values_list("paragraph_id", flat=True)
    )
    tmx = Element("tmx", {"version": "1.4"})
    SubElement(
        tmx,
        "header",
        {
            "creationtool": "ipgsite",
            "creationtoolversion": "1",
            "datatype": "plaintext",
            "segtype": "paragraph",
            "adminlang": "en",
            "srclang": file_language(source),
            "o-tmf": "ipgsite",
            "creationdate": timezone.now().strftime("%Y%m%dT%H%M%SZ"),
        },
    )
    body = SubElement(tmx, "body")
    for paragraph in Paragraph.objects.select_related("section").in_reading_order():
        texts = {code: paragraph.text_in(code) for code in (source, target)}
        if not all(texts.values()) or paragraph.pk in outdated:
            continue
        tu = SubElement(body, "tu", {"tuid": unit_id(paragraph.section.number, paragraph.key)})
        if release is not None:
            SubElement(tu, "prop", {"type": RELEASE}).text = release.date.isoformat()
        SubElement(tu, "prop", {"type": REVISION}).text = str(paragraph.revision)
        for code in (source, target):
            tuv = SubElement(tu, "tuv", {XML_LANG: file_language(code)})
            SubElement(tuv, "seg").text = texts[code]
    indent(tmx)
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + tostring(tmx, encoding="utf-8") + b"\n"


# Import


def _seg_text(element):
    """A segment's text: its own and its `hi` elements', without the native codes of bpt, ept, it, ph and ut."""
    if element is None:
        return None
    parts = [element.text or ""]
    for child in element:
        if child.tag not in CODES:
            parts.append(_seg_text(child))
        parts.append(child.tail or "")
    return "".join(parts)


def _codes():
    return ", ".join(file_language(code) for code in languages.CODES)


def _read_tu(tu, id, srclang, problems):
    """(source language, {language: text}, revision) of one `tu`, or None after adding its problems."""
    found = len(problems)
    source = site_language(tu.get("srclang") or srclang)
    if source is None:
        problems.append(
            _("%(id)s: its source language “%(language)s” is not one of %(codes)s.")
            % {"id": id, "language": tu.get("srclang") or srclang or "", "codes": _codes()}
        )
    texts = {}
    for tuv in tu.findall("tuv"):
        value = tuv.get(XML_LANG) or tuv.get("lang")  # TMX 1.1, as older tools write it
        code = site_language(value)
        if code is None:
            problems.append(
                _("%(id)s: a tuv in “%(language)s”, which is not one of %(codes)s.")
                % {"id": id, "language": value or "", "codes": _codes()}
            )
        elif code in texts:
            problems.append(_("%(id)s: the unit has two tuv in %(language)s.") % {"id": id, "language": value})
        else:
            texts[code] = _seg_text(tuv.find("seg"))
    if source is not None and source not in texts:
        problems.append(
            _("%(id)s: the unit has no tuv in %(language)s, its source language.")
            % {"id": id, "language": file_language(source)}
        )
    revision = writing.LATEST  # checked against its source only
    prop = next((prop for prop in tu.findall("prop") if prop.get("type") == REVISION), None)
    if prop is not None:
        revision = writing.parse_revision((prop.text or "").strip())
        if revision is None:
            problems.append(
                _("%(id)s: its %(prop)s “%(value)s” is not a revision; export the file again.")
                % {"id": id, "prop": REVISION, "value": prop.text or ""}
            )
    return None if len(problems) > found else (source, texts, revision)


def read_tmx(root):
    """The units of a TMX 1.4b document's root element: one per `tu`, in one language pair; raises FileError naming
    every problem."""
    if root.tag != "tmx" or root.get("version") not in VERSIONS:
        raise FileError(
            [_("The file is not TMX 1.4b: its version is “%(version)s”.") % {"version": root.get("version", "")}]
        )
    header, body = root.find("header"), root.find("body")
    srclang = header.get("srclang") if header is not None else None
    if body is None:
        raise FileError([_("The file has no <body>.")])
    problems, found, seen = [], [], set()
    for number, tu in enumerate(body.findall("tu"), start=1):
        id = tu.get("tuid") or ""
        if not id:
            problems.append(
                _("tu %(number)d has no tuid; only units the site exported, named like 2.3#example-c, are imported.")
                % {"number": number}
            )
            continue
        if id in seen:
            problems.append(_("%(id)s: the unit is in the file twice.") % {"id": id})
            continue
        seen.add(id)
        unit = _read_tu(tu, id, srclang, problems)
        if unit is not None:
            found.append((id, *unit))
    targets = sorted(
        {code for _id, source, texts, _rev in found for code in texts if code != source}, key=languages.CODES.index
    )
    if len(targets) > 1:
        problems.append(
            _("The file holds translations into %(languages)s; import one language pair per file, as the site exports.")
            % {"languages": ", ".join(file_language(code) for code in targets)}
        )
    if problems:
        raise FileError(problems)
    if not found:
        raise FileError([_("The file has no tu.")])
    if not targets:
        raise FileError([_("The file has no translation: each tu holds its source only.")])
    target = targets[0]
    return [
        UnitDoc(
            id=id,
            source_language=source,
            target_language=target,
            source=texts[source] or "",
            target=texts.get(target),
            revision=revision,
        )
        for id, source, texts, revision in found
    ]


FORMAT = Format("TMX 1.4b", "tmx", "tu", read_tmx, "importtmx")


def import_tmx(data, by):
    """Import a TMX document as `by`: the report; written only when nothing was refused."""
    return import_file(data, by, [FORMAT])[1]
