"""A translated file coming back from a translation tool, in any of the formats the site reads (XLIFF 1.2, TMX 1.4b).

Each format's reader turns the document into `UnitDoc`s; from there every format is imported the same way. The
file is read in the encoding it declares (`xml_text`) and parsed with defusedxml (no entities), within the limits of
where it comes from (`Limits`: the web takes smaller files than the command line); every unit is checked before
anything is written,
and the writes go through `editing.writing` in one transaction, with the importer's rights. All or nothing: a file
that would change a language the importer may not edit, or any unit whose source changed since the export or whose
target someone changed on the site since, changes nothing; the report names each.
"""

import codecs
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import defusedxml.ElementTree as SafeET
from defusedxml import DefusedXmlException
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ipgsite.editing import writing
from ipgsite.editing.models import Change
from ipgsite.editing.permissions import require_translate
from ipgsite.ipg import languages

from . import units as units_

MAX_PROBLEMS = 100  # a report names at most this many problems, then says how many more


@dataclass(frozen=True)
class Limits:
    """How much one import may read and write: bytes, units, and texts changed (None: no limit but the bytes)."""

    bytes: int
    units: int | None = None
    changes: int | None = None
    where: str = "command"  # "web": a refusal says to use the command line

    @classmethod
    def web(cls):
        """An upload through the site: small enough to be read and written within one request
        (`settings.EXCHANGE_WEB_LIMITS`); bigger files go through `manage.py importxliff|importtmx`."""
        return cls(**settings.EXCHANGE_WEB_LIMITS, where="web")


COMMAND = Limits(bytes=50_000_000)


def file_language(code):
    """A site language as files name it (BCP 47): zh-hans -> zh-Hans."""
    return languages.html_lang(code)


# Regions that write Chinese in simplified characters; zh-TW, zh-HK and zh-MO write traditional ones.
SIMPLIFIED_REGIONS = frozenset({"cn", "sg", "my"})


def _is_region(subtag):
    return (len(subtag) == 2 and subtag.isalpha()) or (len(subtag) == 3 and subtag.isdigit())


def site_language(value):
    """The site language a file names (BCP 47, in any case, with or without a region: ja-JP, zh-CN, en-US), or
    None. Chinese is the site's where the tag says simplified (zh-Hans) or names a region that writes it, and
    another script (ja-Latn) is none of the site's."""
    tag = (value or "").strip().lower().replace("_", "-")
    codes = {code.lower(): code for code in languages.CODES}
    language, *subtags = tag.split("-")
    if tag in codes or not subtags:
        return codes.get(tag)
    regions = [subtag for subtag in subtags if _is_region(subtag)]
    scripts = [subtag for subtag in subtags if len(subtag) == 4 and subtag.isalpha()]
    if len(regions) + len(scripts) < len(subtags) or len(regions) > 1 or len(scripts) > 1:
        return None  # variants, extensions, or more than one region or script
    if language == "zh":
        simplified = scripts == ["hans"] or (not scripts and regions[0] in SIMPLIFIED_REGIONS)
        return codes["zh-hans"] if simplified else None
    return codes.get(language) if not scripts else None


class FileError(Exception):
    """A file that cannot be imported: every problem found (the first MAX_PROBLEMS, then how many more), and its
    format when it is one the site reads."""

    def __init__(self, problems, format=None):
        if len(problems) > MAX_PROBLEMS:
            more = len(problems) - MAX_PROBLEMS
            problems = [
                *problems[:MAX_PROBLEMS],
                ngettext("… and %(count)d more problem.", "… and %(count)d more problems.", more) % {"count": more},
            ]
        self.problems = problems
        self.format = format
        super().__init__("; ".join(str(problem) for problem in problems))


@dataclass
class UnitDoc:
    """One unit as the file has it: its id, its two languages and texts, and the revision it was exported at
    (writing.LATEST where the format carries none)."""

    id: str
    source_language: str
    target_language: str
    source: str
    target: str | None  # None: the unit has no target
    revision: object  # int, or writing.LATEST


@dataclass(frozen=True)
class Format:
    """A format the site reads back: its name, its root element's local name, its units' local name, its reader
    (root -> [UnitDoc]) and the command that imports it."""

    name: str
    root: str
    unit: str
    read: Callable
    command: str


def use_the_command_line(formats):
    """What a refusal of a file too big for the web says to do instead."""
    commands = " / ".join(f"manage.py {format.command} FILE --as USERNAME" for format in formats)
    return _("Import it on the command line (%(commands)s), or split it.") % {"commands": commands}


def too_large(limits=COMMAND, formats=()):
    message = _("The file is larger than %(max)d bytes.") % {"max": limits.bytes}
    return f"{message} {use_the_command_line(formats)}" if limits.where == "web" else message


def too_many_units(count, limits, formats):
    message = _("The file has %(count)d units; a file uploaded here may have at most %(max)d.")
    return f"{message % {'count': count, 'max': limits.units}} {use_the_command_line(formats)}"


def too_many_changes(count, limits, formats):
    message = _("The file changes %(count)d texts; a file uploaded here may change at most %(max)d.")
    return f"{message % {'count': count, 'max': limits.changes}} {use_the_command_line(formats)}"


def local_name(tag):
    return tag.rpartition("}")[2]


# The encodings a file may declare: any Python reads, but UTF-7, in which the same text has many spellings (a way to
# smuggle markup past filters; HTML forbids it too), and Python's own codecs that are no character encoding of a
# file. A few names are read as the larger encoding that tools which write them really use: Windows' Shift_JIS
# (cp932) has NEC's and IBM's characters, GBK and GB18030 hold GB2312.
REFUSED_ENCODINGS = {"utf_7", "unicode_escape", "raw_unicode_escape", "punycode", "idna", "undefined", "mbcs", "oem"}
LARGER_ENCODING = {"shift_jis": "cp932", "gb2312": "gb18030", "gbk": "gb18030", "euc_kr": "cp949"}
DECLARATION = re.compile(rb"""<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z][A-Za-z0-9._-]{0,39})["']""")
BOMS = (  # UTF-32 before UTF-16: its little-endian mark starts with UTF-16's
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
UTF16_WITHOUT_BOM = ((b"<\x00?\x00", "utf-16-le"), (b"\x00<\x00?", "utf-16-be"))


def _encoding_of(data):
    """(the encoding's name as the file gives it, the codec Python reads it with) from the byte order mark, else the
    XML declaration (UTF-8 without either); raises FileError for one the site does not read."""
    for bom, codec in BOMS:
        if data.startswith(bom):
            return codec, codec
    for start, codec in UTF16_WITHOUT_BOM:
        if data.startswith(start):
            return codec, codec
    match = DECLARATION.match(data[:200])
    if match is None:
        return "UTF-8", "utf-8"
    name = match[1].decode("ascii")
    try:
        codec = codecs.lookup(name).name.replace("-", "_")
        "".encode(codec)  # text encodings only (not base64, rot13…)
    except (LookupError, UnicodeError):
        codec = None
    if codec is None or codec in REFUSED_ENCODINGS:
        raise FileError(
            [
                _("The file declares the encoding “%(encoding)s”, which the site does not read; save it as UTF-8.")
                % {"encoding": name}
            ]
        )
    return name, codec


def xml_text(data):
    """The document as text, read in the encoding its byte order mark or XML declaration names (expat itself reads
    only UTF-8, UTF-16, ISO-8859-1 and ASCII); raises FileError naming the encoding when it cannot be read."""
    name, codec = _encoding_of(data)
    for attempt in dict.fromkeys([codec, LARGER_ENCODING.get(codec, codec)]):
        try:
            text = data.decode(attempt).removeprefix("\ufeff")
            break
        except UnicodeError as error:
            failed = error
    else:
        raise FileError(
            [
                _("The file declares the encoding “%(encoding)s”, but byte %(at)d is not text in it; save it as UTF-8.")
                % {"encoding": name, "at": getattr(failed, "start", 0)}
            ]
        )
    if DECLARATION.match(data[:200]) and not text.startswith("<?xml"):
        # An encoding whose text does not begin as its own declaration does (UTF-16 named, but no UTF-16 read).
        raise FileError(
            [
                _("The file declares the encoding “%(encoding)s”, but it is not written in it; save it as UTF-8.")
                % {"encoding": name}
            ]
        )
    return text


def parse_xml(data, limits=COMMAND, formats=()):
    """The root element of a document within `limits`, without entities; raises FileError."""
    if len(data) > limits.bytes:
        raise FileError([too_large(limits, formats)])
    text = xml_text(data)
    try:
        return SafeET.fromstring(text)
    except DefusedXmlException:
        raise FileError([_("The file declares entities; XLIFF and TMX need none.")]) from None
    except (SafeET.ParseError, ValueError) as exc:  # ValueError: text expat cannot take (a lone surrogate)
        raise FileError([_("The file is not well-formed XML: %(error)s") % {"error": exc}]) from None


def read_units(data, formats, limits=COMMAND):
    """(format, [UnitDoc]) of a document in one of `formats`, told apart by the root element, within `limits`;
    raises FileError."""
    root = parse_xml(data, limits, formats)
    for format in formats:
        if local_name(root.tag) == format.root:
            try:
                if limits.units is not None:
                    count = sum(1 for element in root.iter() if local_name(element.tag) == format.unit)
                    if count > limits.units:
                        raise FileError([too_many_units(count, limits, [format])])
                return format, format.read(root)
            except FileError as exc:
                exc.format = format
                raise
    found = {"root": local_name(root.tag)}
    if len(formats) == 1:
        raise FileError(
            [_("The file is not %(format)s: its root element is <%(root)s>.") % {"format": formats[0].name, **found}]
        )
    names = {"formats": ", ".join(format.name for format in formats), **found}
    raise FileError([_("The file is none of %(formats)s: its root element is <%(root)s>.") % names])


@dataclass
class Report:
    """What an import changed, what it refused, and which units it left as they were."""

    changed: list = field(default_factory=list)  # [(id, language, before, after)]
    refused: list = field(default_factory=list)  # [(id, why)]
    unchanged: list = field(default_factory=list)  # [id]
    written: bool = False

    def as_json(self):
        return {
            "written": self.written,
            "changed": [
                {"id": id, "language": code, "before": before, "after": after}
                for id, code, before, after in self.changed
            ],
            "unchanged": self.unchanged,
            "refused": [{"id": id, "why": str(why)} for id, why in self.refused],
        }


def was_stored_before(obj, code, text):
    """Whether `text` is an earlier version of the stored text: what a file without revisions carries when it was
    exported before someone changed the text on the site."""
    return Change.objects.of_text(obj, code).filter(before=text).exists()


def check_units(docs, by):
    """The report of what importing `docs` as `by` would do, and the writes to make: [(obj, code, text, revision)].

    Raises FileError for unknown ids and units that are no translation, PermissionDenied for a language `by` may
    not edit.
    """
    for code in sorted({doc.target_language for doc in docs}, key=languages.CODES.index):
        require_translate(by, code)
    report, writes, problems = Report(), [], []
    found = units_.find_all(doc.id for doc in docs)  # a few queries for the whole file, not one per unit
    for doc in docs:
        obj = found[doc.id]
        if isinstance(obj, units_.UnknownUnit):
            problems.append(str(obj))
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
            report.unchanged.append(doc.id)
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
        if doc.revision is not writing.LATEST and doc.revision > obj.revision:
            # Only an export gives a file its revisions, and never one the text has not reached: a forged or
            # mistyped one would skip the check below, which reads the changes made after the file's revision.
            report.refused.append(
                (
                    doc.id,
                    _("its revision %(file)d is not one the site exported: the text is at revision %(site)d")
                    % {"file": doc.revision, "site": obj.revision},
                )
            )
            continue
        if doc.revision is writing.LATEST and was_stored_before(obj, code, text):
            report.unchanged.append(doc.id)  # an older text from a file without revisions: the newer one stands
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
            report.unchanged.append(doc.id)
            continue
        report.changed.append((doc.id, code, stored, checked))
        writes.append((obj, code, checked, doc.revision))
    if problems:
        raise FileError(problems)
    return report, writes


def import_units(docs, by, limits=COMMAND, formats=()):
    """Write the changed targets of `docs` as `by`: the report; written only when nothing was refused. Checked and
    written under the write lock (`writing.batch`), so that no one saves a text of the file in between."""
    with writing.batch(by):
        report, writes = check_units(docs, by)
        if report.refused:
            return report
        if limits.changes is not None and len(writes) > limits.changes:
            raise FileError([too_many_changes(len(writes), limits, formats)])
        for obj, code, text, revision in writes:
            writing.write_text(obj, code, text, by=by, base_revision=revision)
        report.written = bool(writes)
    return report


def import_file(data, by, formats, limits=COMMAND):
    """Import a document in one of `formats` as `by`, within `limits`: (its format, the report). Raises FileError,
    PermissionDenied, ValidationError, or writing.Busy when another import held the write lock too long."""
    format, docs = read_units(data, formats, limits)
    try:
        return format, import_units(docs, by, limits, [format])
    except FileError as exc:
        exc.format = format
        raise


class ImportCommand(BaseCommand):
    """`manage.py importxliff|importtmx FILE --as USERNAME [--json]`: subclasses name the `format` they read."""

    format = None

    def add_arguments(self, parser):
        parser.add_argument("file", help=f"a {self.format.name} file")
        parser.add_argument("--as", dest="username", required=True, help="import as this user, with their rights")
        parser.add_argument(
            "--json",
            dest="as_json",
            action="store_true",
            help="print the report as JSON: written, changed, unchanged, refused (and problems, if the file is bad)",
        )

    def handle(self, *args, file, username, as_json=False, **options):
        self.as_json = as_json
        by = get_user_model().objects.filter(username=username, is_active=True).first()
        if by is None:
            self.fail(file, [f"no active user {username!r}"])
        try:
            size = Path(file).stat().st_size
            if size > COMMAND.bytes:
                self.fail(file, [f"{file} is {size} bytes, more than {COMMAND.bytes}"])
            data = Path(file).read_bytes()
        except OSError as exc:
            self.fail(file, [f"{file} cannot be read: {exc.strerror}"])
        try:
            _format, report = import_file(data, by, [self.format], COMMAND)
        except FileError as exc:
            self.fail(file, exc.problems)
        except (PermissionDenied, ValidationError) as exc:
            self.fail(file, exc.messages if isinstance(exc, ValidationError) else [str(exc)])
        except writing.Conflict as conflict:
            self.fail(
                file,
                [f"someone saved {conflict.obj} [{conflict.code}] while the file was being imported; import it again"],
            )
        except writing.Busy:
            self.fail(
                file,
                [
                    f"another import or load was being written for more than {writing.WAIT_FOR_WRITES} s; "
                    "import the file again when it is done"
                ],
            )
        if self.as_json:
            self.stdout.write(json_text({"file": file, **report.as_json()}))
        else:
            for id, why in report.refused:
                self.stdout.write(f"refused {id}: {why}")
        if report.refused:
            raise CommandError(
                f"Nothing was imported: {len(report.refused)} units refused. Export again, carry your changes over, "
                "and import that file."
            )
        if not self.as_json:
            for id, code, _before, _after in report.changed:
                self.stdout.write(f"changed {id} [{code}]")
            self.stdout.write(f"Imported {file}: {len(report.changed)} changed, {len(report.unchanged)} unchanged.")

    def fail(self, file, problems):
        """Stop with nothing imported, naming every problem (and, with --json, printing them as JSON too)."""
        problems = [str(problem) for problem in problems]
        if self.as_json:
            report = {"file": file, **Report().as_json(), "problems": problems}
            self.stdout.write(json_text(report))
        if len(problems) == 1:
            raise CommandError(f"Nothing was imported. {file}: {problems[0]}")
        listed = "\n".join(f"  {problem}" for problem in problems)
        raise CommandError(f"Nothing was imported. {file}:\n{listed}")


def json_text(value):
    return json.dumps(value, ensure_ascii=False, indent=2)
