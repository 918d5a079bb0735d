"""Releases in content/releases/<date>.toml, stored as reverse deltas.

`content/sections/*.toml` is the working text. Each release file holds the release's metadata and only
what differed between that release and the next newer state: the next release, or, for the newest
release, the working text. So a release equal to the working text is a file with metadata alone, and
publishing a release rewrites the previous newest release's file with what the new one changed, which
is what a reviewer reads in the commit's diff. A full release is rebuilt by starting from the working
text and applying the files newest first.

    date = "2024-09-23"

    [title]
    en = "…"

    [announcement]
    en = "https://…"

    [[sections]]            # a section that differed
    number = "2.3"
    penalty = "warning"     # as it was, where it differed; also order, title = { en = "…" }
    keys = [                # its paragraphs' keys in order, where the order or the set differed
        "definition-1",
    ]

    [[sections.paragraphs]]
    key = "definition-1"
    en = "…"                # the text as it was, in each language where it differed; also part, bullet
    missing = ["ja"]        # languages it had no text in then

    [[sections.paragraphs]]
    key = "example-d"
    absent = true           # did not exist then

    [[sections.notes]]
    paragraph = "definition-1"
    order = 1               # its place among the paragraph's notes
    ja = "…"                # also language, source, missing, or absent = true

    [[sections]]
    number = "2.7"
    absent = true

A section or paragraph that existed then but not in the newer state is written in full. The writer
produces exactly one text for a release, so that a load followed by an export reproduces the files
byte for byte.
"""

import copy
import re
from pathlib import Path

from django.db import transaction

from ipgsite.caching.versions import content_changed
from ipgsite.ipg import languages
from ipgsite.ipg.contentfiles import ContentError, _kind, _Lines, _load_toml, _toml_string, read_content
from ipgsite.ipg.models import KEY_PATTERN, NUMBER_PATTERN, Part, Penalty

from .models import Release, parse_date
from .snapshots import frozen_from_doc, state_of, store, working_text

LANGUAGES = languages.CODES

HEADER = (
    "# An IPG release: its title and announcement, then only what differed in it from the next newer release\n"
    "# (or, for the newest, from content/sections). Everything not listed here was as it is there.\n"
)
RELEASE_FIELDS = {"date", "title", "announcement", "sections"}
SECTION_FIELDS = {"number", "absent", "order", "penalty", "title", "keys", "paragraphs", "notes"}
PARAGRAPH_FIELDS = {"key", "absent", "part", "bullet", "missing", *LANGUAGES}
NOTE_FIELDS = {"paragraph", "order", "absent", "language", "source", "missing", *LANGUAGES}

EMPTY_SECTION = (None, {"title": {}, "penalty": None, "paragraphs": []})
EMPTY_PARAGRAPH = {"part": None, "bullet": False, "texts": {}, "notes": []}
EMPTY_NOTE = {"language": None, "source": None, "bodies": {}}


# Differences


def _texts_delta(entry, old, new):
    """Write into `entry` the texts of `old` that differ from `new`, and the languages `old` lacked."""
    for code in LANGUAGES:
        if code in old and old[code] != new.get(code):
            entry[code] = old[code]
    missing = [code for code in LANGUAGES if code in new and code not in old]
    if missing:
        entry["missing"] = missing


def section_delta(number, old, new):
    """What section `number` was in a release (`old`: (order, content) or None) that the newer state
    (`new`) no longer says; None if nothing."""
    if old is None:
        return {"number": number, "absent": True}
    old_order, old_content = old
    new_order, new_content = new or EMPTY_SECTION
    entry = {"number": number}
    if old_order != new_order:
        entry["order"] = old_order
    if old_content["penalty"] != new_content["penalty"]:
        entry["penalty"] = old_content["penalty"]
    if old_content["title"] != new_content["title"]:
        entry["title"] = old_content["title"]
    old_keys = [p["key"] for p in old_content["paragraphs"]]
    new_paragraphs = {p["key"]: p for p in new_content["paragraphs"]}
    if old_keys != list(new_paragraphs):
        entry["keys"] = old_keys

    paragraphs, notes = [], []
    for paragraph in old_content["paragraphs"]:
        newer = new_paragraphs.get(paragraph["key"], EMPTY_PARAGRAPH)
        delta = {"key": paragraph["key"]}
        if paragraph["part"] != newer["part"]:
            delta["part"] = paragraph["part"]
        if paragraph["bullet"] != newer["bullet"]:
            delta["bullet"] = paragraph["bullet"]
        _texts_delta(delta, paragraph["texts"], newer["texts"])
        if len(delta) > 1:
            paragraphs.append(delta)
        old_notes, new_notes = paragraph["notes"], newer["notes"]
        for index in range(max(len(old_notes), len(new_notes))):
            ndelta = {"paragraph": paragraph["key"], "order": index + 1}
            if index >= len(old_notes):
                ndelta["absent"] = True
            else:
                note = old_notes[index]
                newer_note = new_notes[index] if index < len(new_notes) else EMPTY_NOTE
                if note["language"] != newer_note["language"]:
                    ndelta["language"] = note["language"]
                if note["source"] != newer_note["source"]:
                    ndelta["source"] = note["source"]
                _texts_delta(ndelta, note["bodies"], newer_note["bodies"])
            if len(ndelta) > 2:
                notes.append(ndelta)
    old_key_set = set(old_keys)
    paragraphs += [{"key": key, "absent": True} for key in new_paragraphs if key not in old_key_set]
    if paragraphs:
        entry["paragraphs"] = paragraphs
    if notes:
        entry["notes"] = notes
    return entry if len(entry) > 1 else None


def reverse_delta(older, newer):
    """Every section's difference, from the newer state back to `older` ({number: (order, content)})."""
    entries = []
    for number in set(older) | set(newer):
        delta = section_delta(number, older.get(number), newer.get(number))
        if delta:
            order = (older.get(number) or newer.get(number))[0]
            entries.append((order, number, delta))
    return [delta for _order, _number, delta in sorted(entries)]


# Writing


def _inline_texts(texts):
    return "{ " + ", ".join(f"{code} = {_toml_string(texts[code])}" for code in LANGUAGES if code in texts) + " }"


def _texts_lines(entry):
    lines = [f"{code} = {_toml_string(entry[code])}" for code in LANGUAGES if code in entry]
    if "missing" in entry:
        lines.append("missing = [" + ", ".join(_toml_string(code) for code in entry["missing"]) + "]")
    return lines


def dump_release(release, delta):
    lines = [HEADER.rstrip("\n"), f"date = {_toml_string(release['date'])}"]
    for header in ("title", "announcement"):
        if release.get(header):
            lines += [
                "",
                f"[{header}]",
                *(f"{c} = {_toml_string(release[header][c])}" for c in LANGUAGES if c in release[header]),
            ]
    for entry in delta:
        lines += ["", "[[sections]]", f"number = {_toml_string(entry['number'])}"]
        if entry.get("absent"):
            lines.append("absent = true")
            continue
        if "order" in entry:
            lines.append(f"order = {entry['order']}")
        if "penalty" in entry:
            lines.append(f"penalty = {_toml_string(entry['penalty'])}")
        if "title" in entry:
            lines.append(f"title = {_inline_texts(entry['title'])}")
        if "keys" in entry:
            lines += ["keys = [", *(f"    {_toml_string(key)}," for key in entry["keys"]), "]"]
        for paragraph in entry.get("paragraphs", []):
            lines += ["", "[[sections.paragraphs]]", f"key = {_toml_string(paragraph['key'])}"]
            if paragraph.get("absent"):
                lines.append("absent = true")
                continue
            if "part" in paragraph:
                lines.append(f"part = {_toml_string(paragraph['part'])}")
            if "bullet" in paragraph:
                lines.append(f"bullet = {'true' if paragraph['bullet'] else 'false'}")
            lines += _texts_lines(paragraph)
        for note in entry.get("notes", []):
            lines += [
                "",
                "[[sections.notes]]",
                f"paragraph = {_toml_string(note['paragraph'])}",
                f"order = {note['order']}",
            ]
            if note.get("absent"):
                lines.append("absent = true")
                continue
            for name in ("language", "source"):
                if name in note:
                    lines.append(f"{name} = {_toml_string(note[name])}")
            lines += _texts_lines(note)
    return "\n".join(lines) + "\n"


def _metadata(release):
    return {
        "date": release.date.isoformat(),
        "title": languages.translations(release, "title"),
        "announcement": languages.translations(release, "announcement"),
    }


def release_texts():
    """{file name: text} for every release in the database, against the database's working text."""
    texts, newer = {}, working_text()
    for release in Release.objects.newest_first().prefetch_related("sections"):
        older = state_of(release)
        texts[f"{release.date.isoformat()}.toml"] = dump_release(_metadata(release), reverse_delta(older, newer))
        newer = older
    return texts


def export_releases(content_dir):
    """Write every release to content_dir/releases/ (removing files of releases that no longer exist);
    the number of files changed."""
    directory = Path(content_dir) / "releases"
    texts = release_texts()
    if not texts and not directory.exists():
        return 0
    directory.mkdir(parents=True, exist_ok=True)
    changed = 0
    for name, text in texts.items():
        path, data = directory / name, text.encode("utf-8")
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
            changed += 1
    for stale in directory.glob("*.toml"):
        if stale.name not in texts:
            stale.unlink()
            changed += 1
    return changed


# Reading


class _HeaderLines:
    """The line of each [[header]] in a file, handed out in order as the tables are read."""

    def __init__(self, text):
        at = _Lines(text).at
        self.lines = {}
        for header in ("sections", "sections.paragraphs", "sections.notes"):
            name = tuple(header.split("."))
            self.lines[header] = iter([at[(*name, n)] for n in range(len(at)) if (*name, n) in at])

    def next(self, header):
        return next(self.lines[header], None)


def _check_fields(path, table, allowed, what, line):
    if not isinstance(table, dict):
        raise ContentError(path, f"{what} must be a table, not {_kind(table)}", line)
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise ContentError(
            path,
            f"unknown field {', '.join(repr(u) for u in unknown)} in {what}; expected one of {sorted(allowed)}",
            line,
        )


def _string(path, value, what, line):
    if not isinstance(value, str) or not value.strip():
        raise ContentError(path, f"{what} must be a non-empty string, not {_kind(value)}", line)
    if "\x00" in value:
        raise ContentError(path, f"{what} contains a NUL character (\\u0000)", line)
    return value


def _texts(path, table, what, line):
    texts = {}
    for code in LANGUAGES:
        if code in table:
            if isinstance(table[code], str) and not table[code].strip():
                raise ContentError(path, f"{what}: the {code} text is empty; leave a missing translation out", line)
            texts[code] = _string(path, table[code], f"{what}: the {code} text", line)
    return texts


def _language_table(path, table, what):
    if not isinstance(table, dict):
        raise ContentError(path, f"[{what}] must be a table of languages")
    _check_fields(path, table, set(LANGUAGES), f"[{what}]", None)
    return _texts(path, table, f"[{what}]", None)


def _missing(path, table, what, line):
    missing = table.get("missing", [])
    if (
        not isinstance(missing, list)
        or not all(code in LANGUAGES for code in missing)
        or len(set(missing)) != len(missing)
    ):
        raise ContentError(path, f"{what}: missing must be a list of languages from {LANGUAGES}", line)
    clash = [code for code in missing if code in table]
    if clash:
        raise ContentError(path, f"{what}: {clash[0]} is both given and missing", line)
    return missing


def _apply_texts(path, texts, table, what, line):
    texts = dict(texts)
    texts.update(_texts(path, table, what, line))
    for code in _missing(path, table, what, line):
        if code not in texts:
            raise ContentError(path, f"{what}: {code} is missing, but the newer state has no {code} text either", line)
        del texts[code]
    return texts


def _absent(path, table, fields, what, line):
    absent = table.get("absent", False)
    if not isinstance(absent, bool):
        raise ContentError(path, f"{what}: absent must be true or false", line)
    if absent and set(table) - fields:
        raise ContentError(path, f"{what} is absent, so it has nothing else: {sorted(set(table) - fields)}", line)
    return absent


def _apply_paragraph(path, paragraphs, table, number, line):
    _check_fields(path, table, PARAGRAPH_FIELDS, f"a paragraph of section {number}", line)
    key = _string(path, table.get("key"), f"a paragraph's key in section {number}", line)
    if not re.match(KEY_PATTERN, key):
        raise ContentError(
            path,
            f"section {number}: paragraph key {key!r} must be lowercase letters and digits joined by hyphens",
            line,
        )
    what = f"section {number}, paragraph {key!r}"
    if _absent(path, table, {"key", "absent"}, what, line):
        if key not in paragraphs:
            raise ContentError(path, f"{what} is marked absent, but the newer state does not have it either", line)
        del paragraphs[key]
        return key
    paragraph = copy.deepcopy(paragraphs.get(key) or {"key": key, **EMPTY_PARAGRAPH})
    if "part" in table:
        paragraph["part"] = table["part"]
    if paragraph["part"] not in Part.values:
        raise ContentError(path, f"{what}: unknown part {paragraph['part']!r}; expected one of {Part.values}", line)
    if "bullet" in table:
        if not isinstance(table["bullet"], bool):
            raise ContentError(path, f"{what}: bullet must be true or false", line)
        paragraph["bullet"] = table["bullet"]
    paragraph["texts"] = _apply_texts(path, paragraph["texts"], table, what, line)
    paragraphs[key] = paragraph
    return key


def _apply_note(path, notes, table, number, line):
    _check_fields(path, table, NOTE_FIELDS, f"a note of section {number}", line)
    key = _string(path, table.get("paragraph"), f"a note's paragraph in section {number}", line)
    order = table.get("order")
    if not isinstance(order, int) or isinstance(order, bool) or order < 1:
        raise ContentError(path, f"section {number}, note on {key!r}: order must be a whole number, 1 or more", line)
    what = f"section {number}, note {order} on {key!r}"
    if key not in notes:
        raise ContentError(path, f"{what}: the section has no paragraph {key!r} in this release", line)
    have = notes[key]
    if _absent(path, table, {"paragraph", "order", "absent"}, what, line):
        if order not in have:
            raise ContentError(path, f"{what} is marked absent, but the newer state does not have it either", line)
        del have[order]
        return
    note = dict(have.get(order) or EMPTY_NOTE)
    for name in ("language", "source"):
        if name in table:
            note[name] = _string(path, table[name], f"{what}: {name}", line)
    if note["language"] is None or note["source"] is None:
        raise ContentError(path, f"{what}: a note the newer state does not have needs its language and source", line)
    if note["language"] not in LANGUAGES:
        raise ContentError(path, f"{what}: unknown language {note['language']!r}; expected one of {LANGUAGES}", line)
    note["bodies"] = _apply_texts(path, note["bodies"], table, what, line)
    if note["language"] not in note["bodies"]:
        raise ContentError(path, f"{what}: no text in its own language {note['language']!r}", line)
    have[order] = note


def _apply_section(path, state, table, lines):
    line = lines.next("sections")
    _check_fields(path, table, SECTION_FIELDS, "a section", line)
    number = _string(path, table.get("number"), "a section's number", line)
    if not re.match(NUMBER_PATTERN, number):
        raise ContentError(path, f"section number {number!r} should look like 2.3, or A for an appendix", line)
    if _absent(path, table, {"number", "absent"}, f"section {number}", line):
        if number not in state:
            raise ContentError(
                path, f"section {number} is marked absent, but the newer state does not have it either", line
            )
        del state[number]
        return number
    order, content = copy.deepcopy(state.get(number) or EMPTY_SECTION)
    if "order" in table:
        order = table["order"]
        if not isinstance(order, int) or isinstance(order, bool) or order < 0:
            raise ContentError(path, f"section {number}: order must be a whole number, 0 or more", line)
    if order is None:
        raise ContentError(
            path, f"section {number}: not in the newer state, so it needs its order, penalty, title and keys", line
        )
    if "penalty" in table:
        content["penalty"] = table["penalty"]
    if content["penalty"] not in ("", *Penalty.values):
        raise ContentError(
            path,
            f"section {number}: unknown penalty {content['penalty']!r}; expected one of {Penalty.values} or none",
            line,
        )
    if "title" in table:
        content["title"] = _language_table(path, table["title"], f"section {number} title")
    if "en" not in content["title"]:
        raise ContentError(path, f"section {number}: the title needs an en title", line)

    paragraphs = {p["key"]: p for p in content["paragraphs"]}
    entries = table.get("paragraphs", [])
    if not isinstance(entries, list):
        raise ContentError(
            path, f"section {number}: paragraphs must be written as [[sections.paragraphs]] tables", line
        )
    seen = set()
    for entry in entries:
        pline = lines.next("sections.paragraphs")
        key = _apply_paragraph(path, paragraphs, entry, number, pline)
        if key in seen:
            raise ContentError(path, f"section {number}: paragraph {key!r} is listed twice", pline)
        seen.add(key)

    keys = table.get("keys", [p["key"] for p in content["paragraphs"] if p["key"] in paragraphs])
    if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys) or len(set(keys)) != len(keys):
        raise ContentError(path, f"section {number}: keys must be a list of distinct paragraph keys", line)
    if set(keys) != set(paragraphs):
        unlisted = sorted(set(paragraphs) - set(keys))
        unknown = sorted(set(keys) - set(paragraphs))
        problem = (
            f"paragraph {unlisted[0]!r} is not in keys"
            if unlisted
            else f"keys names {unknown[0]!r}, which this release does not have"
        )
        raise ContentError(path, f"section {number}: {problem}", line)

    notes = {key: dict(enumerate(paragraphs[key]["notes"], 1)) for key in keys}
    entries = table.get("notes", [])
    if not isinstance(entries, list):
        raise ContentError(path, f"section {number}: notes must be written as [[sections.notes]] tables", line)
    for entry in entries:
        _apply_note(path, notes, entry, number, lines.next("sections.notes"))
    for key, have in notes.items():
        if sorted(have) != list(range(1, len(have) + 1)):
            raise ContentError(
                path,
                f"section {number}: the notes on {key!r} would be numbered {sorted(have)}, not 1 to {len(have)}",
                line,
            )
        paragraphs[key]["notes"] = [have[n] for n in sorted(have)]
    content["paragraphs"] = [paragraphs[key] for key in keys]
    state[number] = (order, content)
    return number


def parse_release(path, newer):
    """A release file's metadata, and the release's state rebuilt from the newer state it differs from."""
    path = Path(path)
    text, data = _load_toml(path)
    _check_fields(path, data, RELEASE_FIELDS, "the release", None)
    raw = data.get("date")
    date = parse_date(raw)
    if date is None:
        raise ContentError(path, f'date must be a release date written as a string like "2024-09-23", not {raw!r}')
    if path.stem != raw:
        raise ContentError(path, f"release {raw} must be in a file named {raw}.toml")
    release = {"date": date, "title": {}, "announcement": {}}
    if "title" in data:
        release["title"] = _language_table(path, data["title"], "title")
    if "announcement" in data:
        release["announcement"] = _language_table(path, data["announcement"], "announcement")
        for code, url in release["announcement"].items():
            if not re.match(r"https?://[^\s]+$", url):
                raise ContentError(path, f"[announcement] {code} must be an http(s) address, not {url!r}")
    sections = data.get("sections", [])
    if not isinstance(sections, list):
        raise ContentError(path, "sections must be written as [[sections]] tables")
    state, lines, seen = copy.deepcopy(newer), _HeaderLines(text), set()
    for table in sections:
        number = _apply_section(path, state, table, lines)
        if number in seen:
            raise ContentError(path, f"section {number} is listed twice")
        seen.add(number)
    return release, state


def read_releases(content_dir, section_docs=None):
    """[(metadata, state)] of every release file, newest first; raises ContentError naming the file."""
    directory = Path(content_dir)
    if section_docs is None:
        _chapters, section_docs = read_content(directory)
    newer = {doc.number: frozen_from_doc(doc) for doc in section_docs}
    paths = sorted((directory / "releases").glob("*.toml"), reverse=True)
    releases = []
    for path in paths:
        release, state = parse_release(path, newer)
        releases.append((release, state))
        newer = state
    return releases


@transaction.atomic
def load_releases(content_dir, section_docs=None):
    """Make the database hold exactly the releases in content_dir/releases/; a file with an error changes
    nothing. `section_docs` (the working text) is read from content_dir/sections when not given."""
    releases = read_releases(content_dir, section_docs)
    stats = {"created": 0, "updated": 0, "deleted": 0}
    stats["deleted"] = (
        Release.objects.exclude(date__in=[r["date"] for r, _s in releases]).delete()[1].get("releases.Release", 0)
    )
    for metadata, state in releases:
        release = Release.objects.filter(date=metadata["date"]).first()
        created = release is None
        release = release or Release(date=metadata["date"])
        changed = False
        for name in ("title", "announcement"):
            for code in languages.CODES:
                column, value = languages.column(name, code), metadata[name].get(code, "")
                if (getattr(release, column) or "") != value:
                    setattr(release, column, value)
                    changed = True
        if created or changed:
            release.save()
        if created or state_of(release) != state:
            store(release, state)
            changed = True
        stats["created" if created else "updated"] += created or changed
    content_changed()
    return stats
