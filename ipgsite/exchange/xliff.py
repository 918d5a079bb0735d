"""A language pair's text as XLIFF 1.2, the format OmegaT, Trados and memoQ all read, and back.

Export: one `file` per section (`original` is its number), one `trans-unit` per paragraph and per note (ids as in
`units`), its `target` with a `state` taken from the translation's status (`needs-translation` where missing,
`needs-review-translation` where outdated, `translated`, and `final`, approved, where reviewed), and the text's
revision in `<note from="ipg-revision">`.

Import parses with defusedxml, checks every unit first, and writes through `editing.writing` in one
transaction, with the importer's rights. All or nothing: a file that would change a language the importer may not
edit, or any unit whose source changed since the export or whose target someone changed on the site since, changes
nothing; the report names each.
"""

from dataclasses import dataclass, field
from xml.etree.ElementTree import Element, SubElement, indent, tostring

import defusedxml.ElementTree as SafeET
from defusedxml import DefusedXmlException
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from ipgsite.editing import writing
from ipgsite.editing.models import State
from ipgsite.editing.permissions import require_translate
from ipgsite.ipg import languages

from . import units as units_

NS = "urn:oasis:names:tc:xliff:document:1.2"
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
REVISION = "ipg-revision"
MAX_BYTES = 5_000_000
STATES = {
    State.MISSING: "needs-translation",
    State.OUTDATED: "needs-review-translation",
    State.TRANSLATED: "translated",
    State.REVIEWED: "final",
}


def q(name):
    return f"{{{NS}}}{name}"


def file_language(code):
    """A site language as files name it (BCP 47): zh-hans -> zh-Hans."""
    return languages.html_lang(code)


def site_language(value):
    """The site language a file names, in any case, or None."""
    return {code.lower(): code for code in languages.CODES}.get((value or "").strip().lower())


# Export


def export_xliff(source, target, section=None):
    """The units of a language pair (of one section, or of all) as an XLIFF 1.2 document (bytes, UTF-8)."""
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
        SubElement(element, "target", {"state": STATES[State(unit.state)]}).text = unit.target
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


class XLIFFError(Exception):
    """A file that cannot be imported: every problem found."""

    def __init__(self, problems):
        self.problems = problems
        super().__init__("; ".join(problems))


@dataclass
class UnitDoc:
    id: str
    source_language: str
    target_language: str
    source: str
    target: str | None  # None: the unit has no target
    revision: int | None
    line: str = ""


def _text(element):
    return "".join(element.itertext()) if element is not None else None


def parse_xliff(data):
    """The trans-units of an XLIFF 1.2 document; raises XLIFFError naming every problem."""
    if len(data) > MAX_BYTES:
        raise XLIFFError([_("The file is larger than %(max)d bytes.") % {"max": MAX_BYTES}])
    try:
        root = SafeET.fromstring(data)
    except DefusedXmlException:
        raise XLIFFError([_("The file declares entities or a document type; XLIFF needs neither.")]) from None
    except SafeET.ParseError as exc:
        raise XLIFFError([_("The file is not well-formed XML: %(error)s") % {"error": exc}]) from None
    if root.tag != q("xliff") or root.get("version") != "1.2":
        raise XLIFFError([_("The file is not XLIFF 1.2 (%(ns)s).") % {"ns": NS}])
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
        raise XLIFFError(problems)
    if not docs:
        raise XLIFFError([_("The file has no trans-unit.")])
    return docs


@dataclass
class Report:
    """What an import changed, what it refused, and how many units it left as they were."""

    changed: list = field(default_factory=list)  # [(id, language, before, after)]
    refused: list = field(default_factory=list)  # [(id, why)]
    unchanged: int = 0
    written: bool = False


def check_units(docs, by):
    """The report of what importing `docs` as `by` would do, and the writes to make: [(obj, code, text, revision)].

    Raises XLIFFError for unknown ids and units that are no translation, PermissionDenied for a language `by` may
    not edit.
    """
    for code in sorted({doc.target_language for doc in docs}, key=languages.CODES.index):
        require_translate(by, code)
    report, writes, problems = Report(), [], []
    for doc in docs:
        try:
            obj = units_.find(doc.id)
        except units_.UnknownUnit as exc:
            problems.append(str(exc))
            continue
        code = doc.target_language
        if not units_.is_translation(obj, code):
            problems.append(
                _("%(id)s: its %(language)s text is the original, not a translation.")
                % {"id": doc.id, "language": file_language(code)}
            )
            continue
        stored = writing.text_in(obj, code)
        try:
            text = writing.clean_text(doc.target or "")
        except ValidationError as exc:
            problems.append(f"{doc.id}: {'; '.join(exc.messages)}")
            continue
        if not text or text == stored or text == writing.clean_text(doc.source):
            # An empty target never deletes a translation, and one that is its source is untranslated: tools fill
            # untranslated targets with the source when they write the translated file.
            report.unchanged += 1
            continue
        if writing.clean_text(doc.source) != writing.text_in(obj, doc.source_language):
            report.refused.append(
                (
                    doc.id,
                    _("its %(language)s source changed on the site since the export")
                    % {"language": file_language(doc.source_language)},
                )
            )
            continue
        try:
            checked = writing.check_text(obj, code, text, by, doc.revision)
        except writing.Conflict as conflict:
            report.refused.append(
                (
                    doc.id,
                    _("its %(language)s text was changed on the site since the export, by %(by)s")
                    % {"language": file_language(code), "by": conflict.by or _("someone")},
                )
            )
            continue
        if checked is None:  # the exported text, while someone changed it since: theirs stands
            report.unchanged += 1
            continue
        report.changed.append((doc.id, code, stored, checked))
        writes.append((obj, code, checked, doc.revision))
    if problems:
        raise XLIFFError(problems)
    return report, writes


def import_xliff(data, by):
    """Import an XLIFF document as `by`: the report; written only when nothing was refused."""
    docs = parse_xliff(data)
    with writing.batch(by):
        report, writes = check_units(docs, by)
        if report.refused:
            return report
        for obj, code, text, revision in writes:
            writing.write_text(obj, code, text, by=by, base_revision=revision)
        report.written = bool(writes)
    return report
