"""The content/ file format: one TOML file per section, plus chapters.toml.

A section file holds the section's metadata, then its paragraphs in reading
order, each with its text in every language under one key, and after each
paragraph the notes that annotate it:

    number = "2.3"
    chapter = "2"
    order = 23
    penalty = "warning"

    [title]
    en = "Game Play Error — Hidden Card Error"

    [[paragraphs]]
    key = "definition-1"
    part = "definition"
    en = "A player commits an error …"
    ja = "プレイヤーが、…"

    [[notes]]
    paragraph = "definition-1"
    language = "ja"
    source = "Japanese annotated edition"
    en = "…"
    ja = \"\"\"…\"\"\"
    follows = { en = "2024-09-23" }
    # zh-hans: "…" is left out of the Chinese, but the sentence is there: current.

A paragraph's `follows` and `reviewed` say where a translation is not simply current: which release's English it
follows, and which translations someone other than their translator reviewed. A note's say the same of its
translations, against its text in its own language (its original) as that release held the note at its place.
A comment inside a paragraph or a note, "# ja: …", is the reason for a translation's status where someone had to
decide; it is kept with the status, so an export writes it back. Any other comment would be lost, and is refused.

`dump_section` writes exactly one canonical text for a document, so that a
load followed by an export reproduces content/ byte for byte.
"""

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from . import languages
from .models import KEY_PATTERN, NUMBER_PATTERN, Alias, Chapter, Note, Paragraph, Part, Penalty, Section

SECTION_FIELDS = {"number", "chapter", "order", "penalty", "title", "aliases", "former_names", "paragraphs", "notes"}
PARAGRAPH_FIELDS = {"key", "former_keys", "part", "bullet", "follows", "reviewed", *languages.CODES}
# What a translation follows, where it is not the current English: a release's date, or an older English
# that no release on this site holds.
FOLLOWS = re.compile(r"\d{4}-\d{2}-\d{2}|unknown")
NOTE_FIELDS = {"paragraph", "language", "source", "follows", "reviewed", *languages.CODES}
CHAPTER_FIELDS = {"number", "order", *languages.CODES}
# The largest PositiveIntegerField PostgreSQL stores; SQLite would take more, and the files must load on both.
MAX_ORDER = 2**31 - 1

HEADER = "# Edit the text under its key; keys never change. Notes follow the paragraph they annotate.\n"


def _max_length(model, name):
    return model._meta.get_field(name).max_length


class ContentError(Exception):
    """A content file that cannot be loaded; the message names the file, the line and what is wrong."""

    def __init__(self, path, message, line=None):
        self.path, self.line, self.message = path, line, message
        where = f"{path}:{line}" if line else f"{path}"
        super().__init__(f"{where}: {message}")


@dataclass
class ParagraphDoc:
    key: str
    part: str
    texts: dict
    bullet: bool = False
    line: int | None = None
    # {code: "2024-09-23" or "unknown"}: translations that follow an older English than the current one
    follows: dict = field(default_factory=dict)
    reviewed: list = field(default_factory=list)  # translations someone other than their translator reviewed
    remarks: dict = field(default_factory=dict)  # {code: why the translation has its status}, from "# code: …"
    former_keys: list = field(default_factory=list)  # keys it had before a rename: their addresses still lead here


@dataclass
class NoteDoc:
    paragraph: str
    language: str
    source: str
    bodies: dict
    line: int | None = None
    # {code: "2024-09-23" or "unknown"}: translations that follow an older original (the note's text in its language)
    follows: dict = field(default_factory=dict)
    reviewed: list = field(default_factory=list)  # translations someone other than their translator reviewed
    remarks: dict = field(default_factory=dict)  # {code: why the translation has its status}, from "# code: …"
    place: int = 1  # among its paragraph's notes, as releases pair notes

    @property
    def name(self):
        """How errors name the note: "note on 'example-c'", or "note 2 on 'example-c'" after the first."""
        return f"note {self.place} on {self.paragraph!r}" if self.place > 1 else f"note on {self.paragraph!r}"


@dataclass
class SectionDoc:
    number: str
    chapter: str
    order: int
    penalty: str
    title: dict
    aliases: dict = field(default_factory=dict)
    former_names: dict = field(default_factory=dict)
    paragraphs: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    path: Path | None = None
    # Where each key is written in the file it was read from, for errors found across files.
    lines: "_Lines | None" = field(default=None, repr=False, compare=False)

    def has_text(self):
        return bool(self.paragraphs)


@dataclass
class ChapterDoc:
    number: str
    order: int
    title: dict


# Reading

_KEY = r"""(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')"""
_KEY_PATH = rf"{_KEY}(?:\s*\.\s*{_KEY})*"
_ARRAY_HEADER = re.compile(rf"\s*\[\[\s*({_KEY_PATH})\s*\]\]\s*(?:#.*)?$")
_TABLE_HEADER = re.compile(rf"\s*\[\s*({_KEY_PATH})\s*\]\s*(?:#.*)?$")
_ASSIGNMENT = re.compile(rf"\s*({_KEY_PATH})\s*=")
_COMMENT = re.compile(r"\s*#(.*)$")
_REMARK = re.compile(r"# ([a-z-]+): (.*\S.*)$")


def _key_path(written):
    """`en."x.y"` -> ('en', 'x.y'): tomllib reads the quoting."""
    data, path = tomllib.loads(f"{written} = 0"), []
    while isinstance(data, dict):
        ((key, data),) = data.items()
        path.append(key)
    return tuple(path)


def _lines_inside_strings(text):
    """Line numbers (1-based) that begin inside a multi-line string: their text is not TOML syntax."""
    inside, line, i, quote = set(), 1, 0, None
    while i < len(text):
        c = text[i]
        if c == "\n":
            line += 1
            if quote:
                inside.add(line)
        elif quote:
            if quote == '"""' and c == "\\":
                i += 1  # the escaped character cannot end the string; a line break after it still counts
                if text[i : i + 1] != "\n":
                    i += 1
                continue
            if text.startswith(quote, i):
                run = len(text[i:]) - len(text[i:].lstrip(quote[0]))
                i += min(run, 5)  # up to two quotes just before the closing three belong to the string
                quote = None
                continue
        elif text.startswith('"""', i) or text.startswith("'''", i):
            quote = text[i : i + 3]
            i += 3
            continue
        elif c in "\"'":
            i += 1
            while i < len(text) and text[i] not in (c, "\n"):
                i += 2 if c == '"' and text[i] == "\\" else 1
        elif c == "#":
            while i + 1 < len(text) and text[i + 1] != "\n":
                i += 1
        i += 1
    return inside


class _Lines:
    """Where each key of a TOML file is written, so that an error can point at its line.

    Keys are paths into the parsed data: ('order',), ('title', 'en'), ('paragraphs', 3, 'key').
    """

    def __init__(self, text):
        self.at = {}
        self.comments = {}  # {table: [(line, text)]}: comment lines, under the table they stand in
        inside = _lines_inside_strings(text)
        table, arrays = (), {}
        for n, line in enumerate(text.split("\n"), 1):
            if n in inside:
                continue
            if match := _ARRAY_HEADER.match(line):
                name = _key_path(match.group(1))
                arrays[name] = arrays.get(name, -1) + 1
                table = (*name, arrays[name])
                self._record(table, n)
            elif match := _TABLE_HEADER.match(line):
                table = _key_path(match.group(1))
                self._record(table, n)
            elif match := _ASSIGNMENT.match(line):
                self._record((*table, *_key_path(match.group(1))), n)
            elif _COMMENT.match(line) and not (n == 1 and line == HEADER.rstrip("\n")):
                self.comments.setdefault(table, []).append((n, line))

    def _record(self, path, n):
        for end in range(1, len(path) + 1):
            self.at.setdefault(path[:end], n)

    def of(self, *path):
        """The line of `path`, or of the nearest enclosing key that is written out."""
        while path:
            if path in self.at:
                return self.at[path]
            path = path[:-1]
        return None


def _load_toml(path):
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ContentError(path, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except OSError as exc:
        raise ContentError(path, f"cannot be read: {exc.strerror}") from None
    try:
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        match = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
        line = int(match.group(1)) if match else None
        raise ContentError(path, f"TOML syntax error: {message}", line) from None
    except RecursionError:
        raise ContentError(path, "nested too deeply to read: arrays or tables hundreds of levels deep") from None


def _kind(value):
    """A wrong value as an error shows it: `not the string '3'`, `not a table`."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return f"the string {value[:40]!r}" + ("…" if len(value) > 40 else "")
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "an array"
    return f"a {type(value).__name__}"


def _wrong(what, expected, value):
    if value is None:
        return f"{what} is missing; it must be {expected}"
    return f"{what} must be {expected}, not {_kind(value)}"


class _File:
    """One content file being read: its checks raise a ContentError naming the file and the line."""

    def __init__(self, path, text):
        self.path, self.lines = path, _Lines(text)

    def error(self, message, at=()):
        return ContentError(self.path, message, self.lines.of(*at))

    def fields(self, table, allowed, what, at=()):
        unknown = sorted(set(table) - allowed)
        if unknown:
            raise self.error(
                f"unknown field {', '.join(repr(u) for u in unknown)} in {what}; expected one of {sorted(allowed)}",
                (*at, unknown[0]),
            )

    def table(self, value, what, expected, at):
        if not isinstance(value, dict):
            raise self.error(_wrong(what, expected, value), at)
        return value

    def tables(self, value, name, what, at):
        """A TOML array of tables, `[[name]]`."""
        if not isinstance(value, list):
            raise self.error(f"{name} must be written as [[{name}]] tables, not {_kind(value)}", at)
        for index, table in enumerate(value):
            self.table(table, f"{what} {index + 1}", f"a [[{name}]] table", (*at, index))
        return value

    def text(self, value, what, at, max_length=None):
        """A string to be stored: no NUL (PostgreSQL refuses it) and no longer than its column."""
        if "\x00" in value:
            raise self.error(f"{what} contains a NUL character (\\u0000)", at)
        if max_length and len(value) > max_length:
            raise self.error(f"{what} is {len(value)} characters long; at most {max_length} fit", at)
        return value

    def string(self, value, what, at, max_length=None):
        if not isinstance(value, str) or not value.strip():
            raise self.error(_wrong(what, "a non-empty string", value), at)
        return self.text(value, what, at, max_length)

    def choice(self, value, choices, what, name, at):
        """One of `choices`; `what` says whose: "paragraph 'example-a': "."""
        if value is None:
            raise self.error(f"{what}{name} is missing; expected one of {list(choices)}", at)
        if not isinstance(value, str) or value not in choices:
            shown = repr(value) if isinstance(value, str) else _kind(value)
            raise self.error(f"{what}unknown {name} {shown}; expected one of {list(choices)}", at)
        return value

    def order(self, value, what, at):
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_ORDER:
            raise self.error(_wrong(what, f"a whole number from 0 to {MAX_ORDER}", value), at)
        return value

    def texts(self, table, what, at, max_length=None):
        texts = {}
        for code in languages.CODES:
            if code in table:
                value = table[code]
                if not isinstance(value, str):
                    raise self.error(f"{what}: the {code} text must be a string, not {_kind(value)}", (*at, code))
                if not value.strip():
                    raise self.error(f"{what}: the {code} text is empty; leave a missing translation out", (*at, code))
                texts[code] = self.text(value, f"{what}: the {code} text", (*at, code), max_length)
        return texts

    def remarks(self, texts, what, at, source=languages.SOURCE):
        """The comments inside a paragraph's or note's table, "# ja: …": {code: the reason for its status}."""
        remarks = {}
        for n, line in self.lines.comments.get(at, []):
            match = _REMARK.fullmatch(line)
            if not match:
                raise ContentError(
                    self.path,
                    f'{what}: a comment here must be a translation\'s remark, "# ja: …"; any other would be lost on '
                    "export",
                    n,
                )
            code, remark = match.groups()
            if code not in texts or code == source:
                raise ContentError(
                    self.path, f"{what}: the remark names {code!r}, which is not a translation it has", n
                )
            remarks[code] = f"{remarks[code]}\n{remark}" if code in remarks else remark
        return remarks

    def stray_comments(self):
        """Refuse a comment outside any paragraph or note: an export could not keep it."""
        for table, comments in self.lines.comments.items():
            if table[:1] not in (("paragraphs",), ("notes",)):
                message = (
                    'a comment belongs inside a paragraph or a note, as "# ja: …"; this one would be lost on export'
                )
                raise ContentError(self.path, message, comments[0][0])

    def translation_statuses(self, table, texts, what, at, source=languages.SOURCE):
        """`follows` and `reviewed`: only for translations the paragraph (or note) has, never for its source
        language (a paragraph's English, the language a note was written in)."""
        translations = [code for code in texts if code != source]
        follows = self.table(table.get("follows", {}), f"{what}: follows", "a table of languages", (*at, "follows"))
        for code, value in follows.items():
            if code not in translations:
                raise self.error(f"{what}: follows names {code!r}, which is not a translation it has", (*at, "follows"))
            if not isinstance(value, str) or not FOLLOWS.fullmatch(value):
                raise self.error(
                    f'{what}: follows.{code} must be a release date like "2024-09-23" or "unknown", not {_kind(value)}',
                    (*at, "follows"),
                )
        reviewed = table.get("reviewed", [])
        if not isinstance(reviewed, list) or len(set(map(str, reviewed))) != len(reviewed):
            raise self.error(f"{what}: reviewed must be a list of languages, each once", (*at, "reviewed"))
        for code in reviewed:
            if code not in translations or code in follows:
                raise self.error(
                    f"{what}: reviewed names {code!r}, which is not a current translation it has", (*at, "reviewed")
                )
        return dict(follows), list(reviewed)

    def names(self, table, kind):
        table = self.table(table, f"[{kind}]", "a table of lists of names by language", (kind,))
        self.fields(table, set(languages.CODES), f"[{kind}]", (kind,))
        names = {}
        for code in languages.CODES:
            if code not in table:
                continue
            values = table[code]
            if not isinstance(values, list) or not all(isinstance(v, str) and v.strip() for v in values):
                raise self.error(f"[{kind}] {code} must be a list of non-empty strings", (kind, code))
            for value in values:
                self.text(value, f"[{kind}] {code}: the name {value!r}", (kind, code), _max_length(Alias, "name"))
            names[code] = list(values)
        return names


def parse_section(path):
    path = Path(path)
    text, data = _load_toml(path)
    f = _File(path, text)
    f.fields(data, SECTION_FIELDS, "the section")

    number = f.string(data.get("number"), "number", ("number",))
    if not re.fullmatch(NUMBER_PATTERN, number):
        raise f.error(f"section number {number!r} should look like 2.3, or A for an appendix", ("number",))
    f.text(number, f"number {number!r}", ("number",), _max_length(Section, "number"))
    if path.stem != number:
        raise f.error(f"section {number} must be in a file named {number}.toml", ("number",))
    chapter = f.string(data.get("chapter"), "chapter", ("chapter",), _max_length(Chapter, "number"))
    order = f.order(data.get("order"), "order", ("order",))
    penalty = data.get("penalty", "")
    if penalty != "":
        f.choice(penalty, Penalty.values, "", "penalty", ("penalty",))
    title = f.table(
        data.get("title"),
        "[title]",
        f"a table with the title in each language, at least {languages.OFFICIAL}",
        ("title",),
    )
    f.fields(title, set(languages.CODES), "[title]", ("title",))
    title = f.texts(title, "[title]", ("title",), _max_length(Section, "title"))
    if languages.OFFICIAL not in title:
        raise f.error(f"[title] needs an {languages.OFFICIAL} title", ("title",))

    doc = SectionDoc(
        number=number, chapter=chapter, order=order, penalty=penalty, title=title, path=path, lines=f.lines
    )
    doc.aliases = f.names(data.get("aliases", {}), "aliases")
    doc.former_names = f.names(data.get("former_names", {}), "former_names")
    # Names are unique per language across the whole IPG (the database says so too): within a section first.
    first = {}
    for kind in ("aliases", "former_names"):
        for code, values in getattr(doc, kind).items():
            for value in values:
                if (code, value) not in first:
                    first[code, value] = kind
                elif first[code, value] == kind:
                    raise f.error(f"the {code} name {value!r} is listed twice in [{kind}]", (kind, code))
                else:
                    raise f.error(
                        f"the {code} name {value!r} is both in [{first[code, value]}] and in [{kind}]", (kind, code)
                    )

    seen, formers = {}, {}
    for index, table in enumerate(f.tables(data.get("paragraphs", []), "paragraphs", "paragraph", ("paragraphs",))):
        at = ("paragraphs", index)
        line = f.lines.of(*at)
        f.fields(table, PARAGRAPH_FIELDS, "a paragraph", at)
        key = f.string(table.get("key"), "a paragraph's key", (*at, "key"))
        if not re.fullmatch(KEY_PATTERN, key):
            raise f.error(f"paragraph key {key!r} must be lowercase letters and digits joined by hyphens", (*at, "key"))
        f.text(key, f"paragraph key {key!r}", (*at, "key"), _max_length(Paragraph, "key"))
        if key in seen:
            raise f.error(f"duplicate paragraph key {key!r} (first used at line {seen[key]})", (*at, "key"))
        seen[key] = line
        part = f.choice(table.get("part"), Part.values, f"paragraph {key!r}: ", "part", (*at, "part"))
        bullet = table.get("bullet", False)
        if not isinstance(bullet, bool):
            raise f.error(f"paragraph {key!r}: bullet must be true or false, not {_kind(bullet)}", (*at, "bullet"))
        former_keys = table.get("former_keys", [])
        if not isinstance(former_keys, list) or not all(isinstance(k, str) for k in former_keys):
            raise f.error(f"paragraph {key!r}: former_keys must be a list of keys", (*at, "former_keys"))
        for former in former_keys:
            if not re.fullmatch(KEY_PATTERN, former) or len(former) > _max_length(Paragraph, "key"):
                raise f.error(f"paragraph {key!r}: former key {former!r} is not a paragraph key", (*at, "former_keys"))
            if former in formers or former == key:
                raise f.error(f"former key {former!r} is listed twice in this section", (*at, "former_keys"))
            formers[former] = key
        texts = f.texts(table, f"paragraph {key!r}", at)
        follows, reviewed = f.translation_statuses(table, texts, f"paragraph {key!r}", at)
        remarks = f.remarks(texts, f"paragraph {key!r}", at)
        doc.paragraphs.append(
            ParagraphDoc(
                key=key,
                part=part,
                texts=texts,
                bullet=bullet,
                line=line,
                follows=follows,
                reviewed=reviewed,
                remarks=remarks,
                former_keys=former_keys,
            )
        )
    for former, owner in formers.items():
        if former in seen:
            at = ("paragraphs", [p.key for p in doc.paragraphs].index(owner), "former_keys")
            raise f.error(f"paragraph {owner!r}: former key {former!r} is the key of another paragraph", at)

    places = {}
    for index, table in enumerate(f.tables(data.get("notes", []), "notes", "note", ("notes",))):
        at = ("notes", index)
        line = f.lines.of(*at)
        f.fields(table, NOTE_FIELDS, "a note", at)
        target = f.string(table.get("paragraph"), "a note's paragraph", (*at, "paragraph"))
        if target not in seen:
            raise f.error(f"note on paragraph {target!r}, which this section does not have", (*at, "paragraph"))
        places[target] = places.get(target, 0) + 1
        note = NoteDoc(paragraph=target, language="", source="", bodies={}, line=line, place=places[target])
        note.language = f.choice(
            table.get("language"), languages.CODES, f"{note.name}: ", "language", (*at, "language")
        )
        note.source = f.string(
            table.get("source"), f"{note.name}: source", (*at, "source"), _max_length(Note, "source")
        )
        note.bodies = f.texts(table, note.name, at)
        if note.language not in note.bodies:
            raise f.error(f"{note.name}: no text in its own language {note.language!r}", at)
        note.follows, note.reviewed = f.translation_statuses(table, note.bodies, note.name, at, source=note.language)
        note.remarks = f.remarks(note.bodies, note.name, at, source=note.language)
        doc.notes.append(note)
    f.stray_comments()
    return doc


def parse_chapters(path):
    path = Path(path)
    text, data = _load_toml(path)
    f = _File(path, text)
    f.fields(data, {"chapters"}, "chapters.toml")
    chapters, seen = [], set()
    for index, table in enumerate(f.tables(data.get("chapters", []), "chapters", "chapter", ("chapters",))):
        at = ("chapters", index)
        f.fields(table, CHAPTER_FIELDS, "a chapter", at)
        number = f.string(table.get("number"), "a chapter's number", (*at, "number"))
        f.text(number, f"a chapter's number {number!r}", (*at, "number"), _max_length(Chapter, "number"))
        if number in seen:
            raise f.error(f"duplicate chapter {number!r}", (*at, "number"))
        seen.add(number)
        order = f.order(table.get("order"), f"chapter {number!r}: order", (*at, "order"))
        title = f.texts(table, f"chapter {number!r}", at, _max_length(Chapter, "title"))
        if languages.OFFICIAL not in title:
            raise f.error(f"chapter {number!r} needs an {languages.OFFICIAL} title", at)
        chapters.append(ChapterDoc(number=number, order=order, title=title))
    return chapters


def read_content(directory):
    """Every chapter and section in a content directory, checked against each other."""
    directory = Path(directory)
    chapters_path = directory / "chapters.toml"
    if not chapters_path.exists():
        raise ContentError(chapters_path, "missing: the content directory needs chapters.toml")
    chapters = parse_chapters(chapters_path)
    known = {c.number for c in chapters}
    if not (directory / "sections").is_dir():
        raise ContentError(directory / "sections", "missing: the content directory needs a sections directory")
    paths = sorted((directory / "sections").glob("*.toml"))
    if not paths:
        # Loading nothing would delete every section, and the history of its translations with it.
        raise ContentError(directory / "sections", "no section files (<number>.toml); nothing to load")
    sections, numbers, orders = [], {}, {}
    for path in paths:
        doc = parse_section(path)
        if doc.chapter not in known:
            raise ContentError(
                path, f"unknown chapter {doc.chapter!r}; chapters.toml has {sorted(known)}", doc.lines.of("chapter")
            )
        if doc.order in orders:
            raise ContentError(
                path, f"order {doc.order} is already used by section {orders[doc.order]}", doc.lines.of("order")
            )
        numbers[doc.number], orders[doc.order] = path, doc.number
        sections.append(doc)
    names = {}
    for doc in sections:
        for kind in ("aliases", "former_names"):
            for code, values in getattr(doc, kind).items():
                for value in values:
                    if names.setdefault((code, value), doc.number) != doc.number:
                        raise ContentError(
                            doc.path,
                            f"the {code} name {value!r} is already an alias of section {names[code, value]}",
                            doc.lines.of(kind, code),
                        )
    return chapters, sorted(sections, key=lambda d: d.order)


# Writing


def _toml_string(value):
    """A TOML string: single-line where possible, a multi-line basic string for text with line breaks."""
    escaped = value.replace("\\", "\\\\")
    if "\n" not in value:
        escaped = escaped.replace('"', '\\"')
        escaped = re.sub(r"[\x00-\x08\x0b-\x1f\x7f]", lambda m: f"\\u{ord(m.group()):04x}", escaped)
        escaped = escaped.replace("\t", "\\t")
        return f'"{escaped}"'
    escaped = escaped.replace('"""', '""\\"')
    if escaped.endswith('"'):
        escaped = escaped[:-1] + '\\"'
    escaped = re.sub(r"[\x00-\x08\x0b-\x1f\x7f]", lambda m: f"\\u{ord(m.group()):04x}", escaped)
    return f'"""\n{escaped}"""'


def _texts_lines(texts):
    return [f"{code} = {_toml_string(texts[code])}" for code in languages.CODES if code in texts]


def _names_block(header, names):
    if not any(names.values()):
        return []
    lines = ["", f"[{header}]"]
    for code in languages.CODES:
        if names.get(code):
            lines.append(f"{code} = [{', '.join(_toml_string(v) for v in names[code])}]")
    return lines


def dump_section(doc):
    lines = [
        HEADER.rstrip("\n"),
        f"number = {_toml_string(doc.number)}",
        f"chapter = {_toml_string(doc.chapter)}",
        f"order = {doc.order}",
        f"penalty = {_toml_string(doc.penalty)}",
        "",
        "[title]",
        *_texts_lines(doc.title),
    ]
    lines += _names_block("aliases", doc.aliases)
    lines += _names_block("former_names", doc.former_names)
    notes_by_paragraph = {}
    for note in doc.notes:
        notes_by_paragraph.setdefault(note.paragraph, []).append(note)
    for paragraph in doc.paragraphs:
        lines += [
            "",
            "[[paragraphs]]",
            f"key = {_toml_string(paragraph.key)}",
        ]
        if paragraph.former_keys:
            lines.append(f"former_keys = [{', '.join(_toml_string(k) for k in paragraph.former_keys)}]")
        lines += [f"part = {_toml_string(paragraph.part)}"]
        if paragraph.bullet:
            lines.append("bullet = true")
        lines += _texts_lines(paragraph.texts)
        lines += _status_lines(paragraph)
        for note in notes_by_paragraph.get(paragraph.key, []):
            lines += [
                "",
                "[[notes]]",
                f"paragraph = {_toml_string(note.paragraph)}",
                f"language = {_toml_string(note.language)}",
                f"source = {_toml_string(note.source)}",
                *_texts_lines(note.bodies),
                *_status_lines(note),
            ]
    return "\n".join(lines) + "\n"


def _status_lines(doc):
    """A paragraph's or a note's `follows` and `reviewed`, where it has them."""
    lines = []
    if doc.follows:
        follows = ", ".join(f"{c} = {_toml_string(doc.follows[c])}" for c in languages.CODES if c in doc.follows)
        lines.append(f"follows = {{ {follows} }}")
    if doc.reviewed:
        reviewed = ", ".join(_toml_string(c) for c in languages.CODES if c in doc.reviewed)
        lines.append(f"reviewed = [{reviewed}]")
    for code in languages.CODES:
        lines += [f"# {code}: {line}" for line in doc.remarks[code].split("\n")] if doc.remarks.get(code) else []
    return lines


def dump_chapters(chapters):
    lines = ["# The IPG's chapters, in reading order. Each section file names its chapter by number."]
    for chapter in chapters:
        lines += ["", "[[chapters]]", f"number = {_toml_string(chapter.number)}", f"order = {chapter.order}"]
        lines += _texts_lines(chapter.title)
    return "\n".join(lines) + "\n"
