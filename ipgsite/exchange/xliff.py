"""A language pair's text as XLIFF 1.2, the format OmegaT, Trados and memoQ all read, and back.

Export: one `file` per section (`original` is its number), one `trans-unit` per paragraph and per note (ids as in
`units`), its `target` with a `state` taken from the translation's status (`needs-translation` where missing,
`needs-review-translation` where outdated, `translated`, and `final`, approved, where reviewed), and the text's
revision in `<note from="ipg-revision">`.

With `fill_targets`, an untranslated unit's target holds its source, still `needs-translation`: OmegaT 3.x (Debian's
3.6) reads XLIFF with its old filter, which translates the `<target>` and skips a unit whose target is empty. Tools
that read `<source>` (Trados, memoQ, OmegaT 4, Weblate) may take such a target for a translation, so it is an option,
not the default. Import leaves a target equal to its source alone: a pre-filled file returned untouched changes
nothing.

Import reads the trans-units back, each with the revision in its note, and `inbound` checks and writes them as it
does every format's units: all or nothing, through the write path, with the importer's rights.
"""

from xml.etree.ElementTree import Element, SubElement, indent, tostring

from django.utils.translation import gettext as _

from ipgsite.editing import writing
from ipgsite.editing.models import State
from ipgsite.ipg import languages

from . import units as units_
from .inbound import FileError, Format, UnitDoc, file_language, import_file, site_language

NS = "urn:oasis:names:tc:xliff:document:1.2"
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
REVISION = "ipg-revision"
STATES = {
    State.MISSING: "needs-translation",
    State.OUTDATED: "needs-review-translation",
    State.TRANSLATED: "translated",
    State.REVIEWED: "final",
}


def q(name):
    return f"{{{NS}}}{name}"


# Export


def export_xliff(source, target, section=None, fill_targets=False):
    """The units of a language pair (of one section, or of all) as an XLIFF 1.2 document (bytes, UTF-8); with
    `fill_targets`, an untranslated unit's target is its source (for OmegaT 3.x)."""
    root = Element("xliff", {"version": "1.2", "xmlns": NS})
    files = {}
    for unit in units_.units(source, target, section):
        number = unit.id.split("#")[0]
        if number not in files:
            files[number] = SubElement(
                root,
                "file",
                {
                    "original": number,
                    "source-language": file_language(source),
                    "target-language": file_language(target),
                    "datatype": "plaintext",
                },
            )
            SubElement(files[number], "body")
        attributes = {"id": unit.id, XML_SPACE: "preserve"}
        if unit.state == State.REVIEWED:
            attributes["approved"] = "yes"
        element = SubElement(files[number].find("body"), "trans-unit", attributes)
        SubElement(element, "source").text = unit.source
        state = STATES[State(unit.state)]
        filled = fill_targets and not unit.target
        SubElement(element, "target", {"state": state}).text = unit.source if filled else unit.target
        SubElement(element, "note", {"from": REVISION}).text = str(unit.revision)
        if unit.is_note:
            comment = (
                f"Commentary, not official text: {unit.obj.source}; written in {file_language(unit.obj.language)}."
            )
            SubElement(element, "note", {"from": "ipg"}).text = comment
    if not len(root):  # a document with no file is not XLIFF 1.2; say which pair holds nothing
        empty = SubElement(
            root,
            "file",
            {
                "original": section.number if section else "ipg",
                "source-language": file_language(source),
                "target-language": file_language(target),
                "datatype": "plaintext",
            },
        )
        SubElement(empty, "body")
    indent(root)
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + tostring(root, encoding="utf-8") + b"\n"


# Import


def _text(element):
    return "".join(element.itertext()) if element is not None else None


def read_xliff(root):
    """The trans-units of an XLIFF 1.2 document's root element; raises FileError naming every problem."""
    if root.tag != q("xliff") or root.get("version") != "1.2":
        raise FileError([_("The file is not XLIFF 1.2 (%(ns)s).") % {"ns": NS}])
    problems, docs, seen = [], [], set()
    for file in root.iter(q("file")):
        source_language = site_language(file.get("source-language"))
        target_language = site_language(file.get("target-language"))
        where = file.get("original") or "?"
        if source_language is None or target_language is None or source_language == target_language:
            problems.append(
                _(
                    "file %(file)s: source-language “%(source)s” and target-language “%(target)s” "
                    "are not two of %(codes)s."
                )
                % {
                    "file": where,
                    "source": file.get("source-language"),
                    "target": file.get("target-language"),
                    "codes": ", ".join(file_language(code) for code in languages.CODES),
                }
            )
            continue
        for element in file.iter(q("trans-unit")):
            id = element.get("id", "")
            if id in seen:
                problems.append(_("%(id)s: the unit is in the file twice.") % {"id": id})
                continue
            seen.add(id)
            revision = next((_text(note) for note in element.findall(q("note")) if note.get("from") == REVISION), None)
            revision = writing.parse_revision((revision or "").strip())
            if revision is None:
                problems.append(
                    _('%(id)s: the unit has no <note from="ipg-revision">: export the file again.') % {"id": id}
                )
                continue
            docs.append(
                UnitDoc(
                    id=id,
                    source_language=source_language,
                    target_language=target_language,
                    source=_text(element.find(q("source"))) or "",
                    target=_text(element.find(q("target"))),
                    revision=revision,
                )
            )
    if problems:
        raise FileError(problems)
    if not docs:
        raise FileError([_("The file has no trans-unit.")])
    return docs


FORMAT = Format("XLIFF 1.2", "xliff", "trans-unit", read_xliff, "importxliff")


def import_xliff(data, by):
    """Import an XLIFF document as `by`: the report; written only when nothing was refused."""
    return import_file(data, by, [FORMAT])[1]
