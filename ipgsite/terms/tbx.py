"""The termbase as TBX-Basic (the TermBase eXchange format's basic dialect, as translation tools read it).

One `termEntry` per term, its id the term's key, its kind as `subjectField`, its defining paragraph as an
`externalCrossReference`; one `langSet` per language the term has, with the name (`fullForm`, preferred), the variants
(`variant`, admitted) and the inflections (`variant`, with the note "inflection"), each form with the places it was
found as `source`. The defining paragraph's text goes with each `langSet` as its `definition`, for the reader only:
it is the IPG's text, which an import never changes.

Import (`importtbx`) parses with defusedxml, checks the whole file first, and then writes through
`editing.writing`, in one transaction: a `langSet` sets that language's name and forms of the term; languages
and terms the file leaves out are left as they are. The places where forms were found are imported from an editor's
file (or one imported as the content files) only.
"""

import os
import re
from dataclasses import dataclass, field
from xml.etree.ElementTree import Element, SubElement, indent, tostring

import defusedxml.ElementTree as SafeET
from defusedxml import DefusedXmlException

from ipgsite.ipg import languages
from ipgsite.ipg.models import KEY_PATTERN, PARAGRAPH_ADDRESS, Paragraph

from .attestation import SEED_LOCATION
from .models import Kind, Term

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
INFLECTION = "inflection"
DEFINITION_TARGET = re.compile(r"ipg:(?P<location>.+)")
MAX_BYTES = 5_000_000


class TBXError(Exception):
    """A TBX file that cannot be imported: every problem found, each saying where."""

    def __init__(self, problems):
        self.problems = problems
        super().__init__("; ".join(problems))


# Export


def export_tbx():
    """The termbase as a TBX-Basic document (bytes, UTF-8)."""
    martif = Element("martif", {"type": "TBX-Basic", XML_LANG: languages.SOURCE})
    header = SubElement(martif, "martifHeader")
    file_desc = SubElement(header, "fileDesc")
    SubElement(
        SubElement(file_desc, "sourceDesc"), "p"
    ).text = (
        "Infraction Procedure Guide: terms in English, Simplified Chinese and Japanese, as the IPG's texts name them"
    )
    SubElement(SubElement(header, "encodingDesc"), "p", {"type": "XCSURI"}).text = "TBXBasicXCSV02.xcs"
    body = SubElement(SubElement(martif, "text"), "body")
    for term in Term.objects.order_by("order", "key").select_related("defined_in__section"):
        entry = SubElement(body, "termEntry", {"id": term.key})
        SubElement(entry, "descrip", {"type": "subjectField"}).text = term.kind
        defined = term.defined_in
        if defined:
            target = f"ipg:{defined.section.number}#{defined.key}"
            SubElement(entry, "xref", {"type": "externalCrossReference", "target": target}).text = target
        found = term.found or {}
        for code in languages.CODES:
            forms = [(term.name_in(code), "fullForm", "preferredTerm-admn-sts", "")]
            forms = [f for f in forms if f[0]]
            forms += [(v, "variant", "admittedTerm-admn-sts", "") for v in term.variants_in(code)]
            forms += [(v, "variant", "admittedTerm-admn-sts", INFLECTION) for v in term.inflections_in(code)]
            if not forms:
                continue
            lang_set = SubElement(entry, "langSet", {XML_LANG: code})
            if defined and (text := defined.text_in(code)):
                SubElement(lang_set, "descrip", {"type": "definition"}).text = text
            for form, term_type, status, note in forms:
                tig = SubElement(lang_set, "tig")
                SubElement(tig, "term").text = form
                SubElement(tig, "termNote", {"type": "termType"}).text = term_type
                SubElement(tig, "termNote", {"type": "administrativeStatus"}).text = status
                for place in found.get(form, []):
                    SubElement(tig, "admin", {"type": "source"}).text = place
                if note:
                    SubElement(tig, "note").text = note
    indent(martif)
    doctype = '<!DOCTYPE martif SYSTEM "TBXBasiccoreStructV02.dtd">\n'
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + doctype.encode() + tostring(martif, encoding="utf-8") + b"\n"


# Import


@dataclass
class EntryDoc:
    key: str
    kind: str = ""
    defined_at: str | None = None  # None: the file says nothing about it
    names: dict = field(default_factory=dict)  # {code: name or ""} for each langSet in the file
    variants: dict = field(default_factory=dict)
    inflections: dict = field(default_factory=dict)
    found: dict = field(default_factory=dict)


def _language(value):
    by_case = {code.casefold(): code for code in languages.CODES}
    return by_case.get((value or "").casefold())


def _text(element):
    return " ".join((element.text or "").split()) if element is not None else ""


def read_tbx(path):
    """The bytes of the file at `path`, measured before they are read: a file over MAX_BYTES is a TBXError
    (and so is a file that grows past it while read, such as a pipe); OSError when it cannot be read."""
    with open(path, "rb") as file:
        size = os.fstat(file.fileno()).st_size
        if size > MAX_BYTES:
            raise TBXError([f"the file is {size} bytes; at most {MAX_BYTES} are read"])
        data = file.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise TBXError([f"the file is over {MAX_BYTES} bytes; at most {MAX_BYTES} are read"])
    return data


def parse_tbx(data):
    """The entries of a TBX-Basic document, or TBXError with every problem found."""
    if len(data) > MAX_BYTES:
        raise TBXError([f"the file is {len(data)} bytes; at most {MAX_BYTES} are read"])
    try:
        root = SafeET.fromstring(data)
    except DefusedXmlException as exc:
        raise TBXError([f"refused: the file declares {type(exc).__name__} (entities or external references)"]) from None
    except SafeET.ParseError as exc:
        raise TBXError([f"not well-formed XML: {exc}"]) from None
    except ValueError as exc:  # e.g. a NUL byte
        raise TBXError([f"not readable as XML: {exc}"]) from None
    if root.tag != "martif":
        raise TBXError([f"the root element is <{root.tag}>, not <martif>: this is no TBX file"])
    problems, entries, seen = [], [], set()
    body = root.find("text/body")
    if body is None:
        raise TBXError(["no <text><body> in <martif>: the file has no terms"])
    for index, element in enumerate(body.findall("termEntry"), 1):
        key = element.get("id", "")
        where = f"termEntry {index} (id={key!r})"
        if not re.fullmatch(KEY_PATTERN, key) or len(key) > 64:
            problems.append(f"{where}: the id must be a term key, lowercase letters and digits joined by hyphens")
            continue
        if key in seen:
            problems.append(f"{where}: the id {key!r} is used twice")
            continue
        seen.add(key)
        entry = EntryDoc(key=key)
        subject = element.find("descrip[@type='subjectField']")
        if subject is not None:
            entry.kind = _text(subject)
            if entry.kind not in Kind.values:
                problems.append(f"{where}: subjectField {entry.kind!r} is none of {Kind.values}")
        xref = element.find("xref[@type='externalCrossReference']")
        if xref is not None:
            match = DEFINITION_TARGET.fullmatch(xref.get("target", ""))
            if not match or not PARAGRAPH_ADDRESS.fullmatch(match["location"]):
                problems.append(f'{where}: the cross-reference target must be like "ipg:2.3#definition-1"')
            else:
                entry.defined_at = match["location"]
        for lang_set in element.findall("langSet"):
            code = _language(lang_set.get(XML_LANG))
            if code is None:
                problems.append(
                    f"{where}: langSet xml:lang={lang_set.get(XML_LANG)!r} is none of {', '.join(languages.CODES)}"
                )
                continue
            if code in entry.names:
                problems.append(f"{where}: two langSets for {code}")
                continue
            entry.names[code], entry.variants[code], entry.inflections[code] = "", [], []
            for tig in lang_set.findall("tig"):
                form = _text(tig.find("term"))
                if not form or len(form) > 200:
                    problems.append(f"{where}, {code}: a <term> must hold a name of 1 to 200 characters")
                    continue
                term_type = _text(tig.find("termNote[@type='termType']")) or "fullForm"
                status = _text(tig.find("termNote[@type='administrativeStatus']"))
                inflection = any(_text(note) == INFLECTION for note in tig.findall("note"))
                preferred = status == "preferredTerm-admn-sts" or (not status and term_type == "fullForm")
                if preferred and not inflection:
                    if entry.names[code]:
                        problems.append(f"{where}, {code}: two preferred names, {entry.names[code]!r} and {form!r}")
                        continue
                    entry.names[code] = form
                else:
                    (entry.inflections if inflection else entry.variants)[code].append(form)
                places = [_text(a) for a in tig.findall("admin[@type='source']")]
                for place in places:
                    if not (SEED_LOCATION.fullmatch(place) or PARAGRAPH_ADDRESS.fullmatch(place)):
                        problems.append(f"{where}, {code}: source {place!r} is no seed line (000:5) or paragraph")
                if places:
                    entry.found.setdefault(form, [])
                    entry.found[form] += [p for p in places if p not in entry.found[form]]
        entries.append(entry)
    if problems:
        raise TBXError(problems)
    return entries


def check_entries(entries):
    """Problems an import would meet in the database: unknown paragraphs, new terms without a kind, shared names."""
    problems = []
    existing = {t.key: t for t in Term.objects.all()}
    paragraphs = {(p.section.number, p.key) for p in Paragraph.objects.select_related("section")}
    owners = {}
    for term in existing.values():
        for code in languages.CODES:
            if name := term.name_in(code):
                owners[code, name.casefold()] = term.key
    for entry in entries:  # the names the file replaces are free for other terms of the file
        if entry.key in existing:
            for code in entry.names:
                owners.pop((code, existing[entry.key].name_in(code).casefold()), None)
    for entry in entries:
        where = f"termEntry {entry.key!r}"
        if entry.key not in existing and not entry.kind:
            problems.append(f"{where}: a new term needs its kind (descrip type='subjectField')")
        if entry.defined_at and tuple(entry.defined_at.split("#")) not in paragraphs:
            problems.append(f"{where}: the defining paragraph {entry.defined_at} does not exist")
        for code, name in entry.names.items():
            if name:
                other = owners.setdefault((code, name.casefold()), entry.key)
                if other != entry.key:
                    problems.append(f"{where}: the {code} name {name!r} is already the name of term {other!r}")
    return problems


def import_entries(entries, by):
    """Write the entries through `editing.writing`, as `by`, in one transaction: {created, updated, unchanged}.

    Raises TBXError (nothing written) for problems the database shows, PermissionDenied for a change `by` may not
    make (a translator sets only their languages' names and forms; a new term, a kind, a defining paragraph and the
    places where names were found are an editor's), ValidationError for a name `writing` refuses.
    """
    from django.db.models import Max

    from ipgsite.editing import writing
    from ipgsite.editing.permissions import can_edit_structure

    problems = check_entries(entries)
    if problems:
        raise TBXError(problems)
    stats = {"created": 0, "updated": 0, "unchanged": 0}
    editor = by is writing.CONTENT_FILES or can_edit_structure(by)
    paragraphs = {(p.section.number, p.key): p.pk for p in Paragraph.objects.select_related("section")}
    with writing.batch(by):
        order = Term.objects.aggregate(last=Max("order"))["last"] or 0
        for entry in entries:
            term = Term.objects.filter(key=entry.key).first()
            created = term is None
            values = {}
            if created:
                order += 1
                values = {"kind": entry.kind, "order": order}
            elif entry.kind and entry.kind != term.kind:
                values["kind"] = entry.kind
            if entry.defined_at is not None:
                defined = paragraphs[tuple(entry.defined_at.split("#"))]
                if created or defined != term.defined_in_id:
                    values["defined_in_id"] = defined
            found = dict(term.found or {}) if term else {}
            # Where a name was found is an editor's record: a translator's file adds names, not attestations.
            for form, places in entry.found.items() if editor else ():
                found[form] = list(dict.fromkeys([*found.get(form, []), *places]))
            if found != ((term.found or {}) if term else {}):
                values["found"] = found
            if values:
                term = writing.save_structure(term or Term(key=entry.key), values, by=by)
            changed = bool(values) and not created
            for code in entry.names:
                texts = {
                    "name": entry.names[code],
                    "variants": "\n".join(entry.variants[code]),
                    "inflections": "\n".join(entry.inflections[code]),
                }
                for name, value in texts.items():
                    if value != writing.text_in(term, code, name):
                        changed |= writing.write_text(
                            term, code, value, by=by, base_revision=writing.LATEST, field=name
                        )
            key = "created" if created else "updated" if changed else "unchanged"
            stats[key] += 1
    return stats
