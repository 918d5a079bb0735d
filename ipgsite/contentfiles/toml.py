"""Reading and writing content/'s TOML files: the checks every kind of file shares, each raising a ContentError that
names the file and the line, and the canonical way a string is written, so that an export reproduces the files byte
for byte."""

import re
import tomllib
from pathlib import Path

from ipgsite.ipg import languages
from ipgsite.ipg.models import Alias

# What a translation follows, where it is not the current English: a release's date, or an older English
# that no release on this site holds.
FOLLOWS = re.compile(r"\d{4}-\d{2}-\d{2}|unknown")
# The largest PositiveIntegerField PostgreSQL stores; SQLite would take more, and the files must load on both.
MAX_ORDER = 2**31 - 1

HEADER = "# Edit the text under its key; keys never change. Notes follow the paragraph they annotate.\n"


def max_length(model, name):
    return model._meta.get_field(name).max_length


class ContentError(Exception):
    """A content file that cannot be loaded; the message names the file, the line and what is wrong."""

    def __init__(self, path, message, line=None):
        self.path, self.line, self.message = path, line, message
        where = f"{path}:{line}" if line else f"{path}"
        super().__init__(f"{where}: {message}")


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


class Lines:
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


def load_toml(path):
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


def kind_of(value):
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


def wrong(what, expected, value):
    if value is None:
        return f"{what} is missing; it must be {expected}"
    return f"{what} must be {expected}, not {kind_of(value)}"


class File:
    """One content file being read: its checks raise a ContentError naming the file and the line."""

    def __init__(self, path, text):
        self.path, self.lines = path, Lines(text)

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
            raise self.error(wrong(what, expected, value), at)
        return value

    def tables(self, value, name, what, at):
        """A TOML array of tables, `[[name]]`."""
        if not isinstance(value, list):
            raise self.error(f"{name} must be written as [[{name}]] tables, not {kind_of(value)}", at)
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
            raise self.error(wrong(what, "a non-empty string", value), at)
        return self.text(value, what, at, max_length)

    def choice(self, value, choices, what, name, at):
        """One of `choices`; `what` says whose: "paragraph 'example-a': "."""
        if value is None:
            raise self.error(f"{what}{name} is missing; expected one of {list(choices)}", at)
        if not isinstance(value, str) or value not in choices:
            shown = repr(value) if isinstance(value, str) else kind_of(value)
            raise self.error(f"{what}unknown {name} {shown}; expected one of {list(choices)}", at)
        return value

    def order(self, value, what, at):
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_ORDER:
            raise self.error(wrong(what, f"a whole number from 0 to {MAX_ORDER}", value), at)
        return value

    def texts(self, table, what, at, max_length=None):
        texts = {}
        for code in languages.CODES:
            if code in table:
                value = table[code]
                if not isinstance(value, str):
                    raise self.error(f"{what}: the {code} text must be a string, not {kind_of(value)}", (*at, code))
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
                    f'{what}: follows.{code} must be a release date like "2024-09-23" or "unknown", '
                    f"not {kind_of(value)}",
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
                self.text(value, f"[{kind}] {code}: the name {value!r}", (kind, code), max_length(Alias, "name"))
            names[code] = list(values)
        return names


def toml_string(value):
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
