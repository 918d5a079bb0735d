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
    ja = \"\"\"…\"\"\"

`dump_section` writes exactly one canonical text for a document, so that a
load followed by an export reproduces content/ byte for byte.
"""

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from .models import KEY_PATTERN, NUMBER_PATTERN, Part, Penalty

LANGUAGES = ["en", "zh-hans", "ja"]
SECTION_FIELDS = {"number", "chapter", "order", "penalty", "title", "aliases", "former_names", "paragraphs", "notes"}
PARAGRAPH_FIELDS = {"key", "part", "bullet", *LANGUAGES}
NOTE_FIELDS = {"paragraph", "language", "source", *LANGUAGES}
CHAPTER_FIELDS = {"number", "order", *LANGUAGES}

HEADER = "# Edit the text under its key; keys never change. Notes follow the paragraph they annotate.\n"


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


@dataclass
class NoteDoc:
    paragraph: str
    language: str
    source: str
    bodies: dict
    line: int | None = None


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

    def has_text(self):
        return bool(self.paragraphs)


@dataclass
class ChapterDoc:
    number: str
    order: int
    title: dict


# Reading


def _table_lines(text, header):
    """Line numbers (1-based) of each `[[header]]`, in order, so errors can point at them."""
    pattern = re.compile(rf"^\s*\[\[\s*{re.escape(header)}\s*\]\]\s*(#.*)?$")
    return [n for n, line in enumerate(text.splitlines(), 1) if pattern.match(line)]


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


def _check_fields(path, table, allowed, what, line):
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise ContentError(
            path, f"unknown field {', '.join(repr(u) for u in unknown)} in {what}; expected one of {sorted(allowed)}", line
        )


def _string(path, value, what, line, required=True):
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value.strip()):
        raise ContentError(path, f"{what} must be a non-empty string", line)
    return value


def _texts(path, table, what, line):
    texts = {}
    for code in LANGUAGES:
        if code in table:
            value = table[code]
            if not isinstance(value, str):
                raise ContentError(path, f"{what}: the {code} text must be a string", line)
            if not value.strip():
                raise ContentError(path, f"{what}: the {code} text is empty; leave a missing translation out", line)
            texts[code] = value
    return texts


def _names(path, table, what):
    if not isinstance(table, dict):
        raise ContentError(path, f"[{what}] must be a table of languages")
    _check_fields(path, table, set(LANGUAGES), f"[{what}]", None)
    names = {}
    for code, values in table.items():
        if not isinstance(values, list) or not all(isinstance(v, str) and v.strip() for v in values):
            raise ContentError(path, f"[{what}] {code} must be a list of non-empty strings")
        names[code] = list(values)
    return names


def parse_section(path):
    path = Path(path)
    text, data = _load_toml(path)
    _check_fields(path, data, SECTION_FIELDS, "the section", None)

    number = _string(path, data.get("number"), "number", None)
    if not re.match(NUMBER_PATTERN, number):
        raise ContentError(path, f"section number {number!r} should look like 2.3, or A for an appendix")
    if path.stem != number:
        raise ContentError(path, f"section {number} must be in a file named {number}.toml")
    chapter = _string(path, data.get("chapter"), "chapter", None)
    order = data.get("order")
    if not isinstance(order, int) or isinstance(order, bool) or order < 0:
        raise ContentError(path, "order must be a whole number, 0 or more")
    penalty = data.get("penalty", "")
    if penalty not in ("", *Penalty.values):
        raise ContentError(path, f"unknown penalty {penalty!r}; expected one of {Penalty.values} or none")
    title = data.get("title")
    if not isinstance(title, dict):
        raise ContentError(path, "[title] must be a table with the title in each language, at least en")
    _check_fields(path, title, set(LANGUAGES), "[title]", None)
    title = _texts(path, title, "[title]", None)
    if "en" not in title:
        raise ContentError(path, "[title] needs an en title")

    doc = SectionDoc(number=number, chapter=chapter, order=order, penalty=penalty, title=title, path=path)
    doc.aliases = _names(path, data.get("aliases", {}), "aliases")
    doc.former_names = _names(path, data.get("former_names", {}), "former_names")

    paragraph_lines = _table_lines(text, "paragraphs")
    paragraphs = data.get("paragraphs", [])
    if not isinstance(paragraphs, list):
        raise ContentError(path, "paragraphs must be written as [[paragraphs]] tables")
    seen = {}
    for index, table in enumerate(paragraphs):
        line = paragraph_lines[index] if index < len(paragraph_lines) else None
        _check_fields(path, table, PARAGRAPH_FIELDS, "a paragraph", line)
        key = _string(path, table.get("key"), "a paragraph's key", line)
        if not re.match(KEY_PATTERN, key):
            raise ContentError(
                path, f"paragraph key {key!r} must be lowercase letters and digits joined by hyphens", line
            )
        if key in seen:
            raise ContentError(path, f"duplicate paragraph key {key!r} (first used at line {seen[key]})", line)
        seen[key] = line
        part = table.get("part")
        if part not in Part.values:
            raise ContentError(path, f"paragraph {key!r}: unknown part {part!r}; expected one of {Part.values}", line)
        bullet = table.get("bullet", False)
        if not isinstance(bullet, bool):
            raise ContentError(path, f"paragraph {key!r}: bullet must be true or false", line)
        texts = _texts(path, table, f"paragraph {key!r}", line)
        doc.paragraphs.append(ParagraphDoc(key=key, part=part, texts=texts, bullet=bullet, line=line))

    note_lines = _table_lines(text, "notes")
    notes = data.get("notes", [])
    if not isinstance(notes, list):
        raise ContentError(path, "notes must be written as [[notes]] tables")
    for index, table in enumerate(notes):
        line = note_lines[index] if index < len(note_lines) else None
        _check_fields(path, table, NOTE_FIELDS, "a note", line)
        target = _string(path, table.get("paragraph"), "a note's paragraph", line)
        if target not in seen:
            raise ContentError(path, f"note on paragraph {target!r}, which this section does not have", line)
        language = table.get("language")
        if language not in LANGUAGES:
            raise ContentError(path, f"note on {target!r}: unknown language {language!r}; expected one of {LANGUAGES}", line)
        source = _string(path, table.get("source"), f"note on {target!r}: source", line)
        bodies = _texts(path, table, f"note on {target!r}", line)
        if language not in bodies:
            raise ContentError(path, f"note on {target!r}: no text in its own language {language!r}", line)
        doc.notes.append(NoteDoc(paragraph=target, language=language, source=source, bodies=bodies, line=line))
    return doc


def parse_chapters(path):
    path = Path(path)
    _text, data = _load_toml(path)
    _check_fields(path, data, {"chapters"}, "chapters.toml", None)
    chapters, seen = [], set()
    lines = _table_lines(_text, "chapters")
    for index, table in enumerate(data.get("chapters", [])):
        line = lines[index] if index < len(lines) else None
        _check_fields(path, table, CHAPTER_FIELDS, "a chapter", line)
        number = _string(path, table.get("number"), "a chapter's number", line)
        if number in seen:
            raise ContentError(path, f"duplicate chapter {number!r}", line)
        seen.add(number)
        order = table.get("order")
        if not isinstance(order, int) or isinstance(order, bool):
            raise ContentError(path, f"chapter {number!r}: order must be a whole number", line)
        title = _texts(path, table, f"chapter {number!r}", line)
        if "en" not in title:
            raise ContentError(path, f"chapter {number!r} needs an en title", line)
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
    sections, numbers, orders = [], {}, {}
    for path in sorted((directory / "sections").glob("*.toml")):
        doc = parse_section(path)
        if doc.chapter not in known:
            raise ContentError(path, f"unknown chapter {doc.chapter!r}; chapters.toml has {sorted(known)}")
        if doc.order in orders:
            raise ContentError(path, f"order {doc.order} is already used by section {orders[doc.order]}")
        numbers[doc.number], orders[doc.order] = path, doc.number
        sections.append(doc)
    names = {}
    for doc in sections:
        for code in LANGUAGES:
            for value in doc.aliases.get(code, []) + doc.former_names.get(code, []):
                if (code, value) in names and names[code, value] != doc.number:
                    raise ContentError(
                        doc.path, f"the {code} name {value!r} is already an alias of section {names[code, value]}"
                    )
                names[code, value] = doc.number
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


def _key(code):
    return code


def _texts_lines(texts):
    return [f"{_key(code)} = {_toml_string(texts[code])}" for code in LANGUAGES if code in texts]


def _names_block(header, names):
    if not any(names.values()):
        return []
    lines = ["", f"[{header}]"]
    for code in LANGUAGES:
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
        lines += ["", "[[paragraphs]]", f"key = {_toml_string(paragraph.key)}", f"part = {_toml_string(paragraph.part)}"]
        if paragraph.bullet:
            lines.append("bullet = true")
        lines += _texts_lines(paragraph.texts)
        for note in notes_by_paragraph.get(paragraph.key, []):
            lines += [
                "",
                "[[notes]]",
                f"paragraph = {_toml_string(note.paragraph)}",
                f"language = {_toml_string(note.language)}",
                f"source = {_toml_string(note.source)}",
                *_texts_lines(note.bodies),
            ]
    return "\n".join(lines) + "\n"


def dump_chapters(chapters):
    lines = ["# The IPG's chapters, in reading order. Each section file names its chapter by number."]
    for chapter in chapters:
        lines += ["", "[[chapters]]", f"number = {_toml_string(chapter.number)}", f"order = {chapter.order}"]
        lines += _texts_lines(chapter.title)
    return "\n".join(lines) + "\n"
