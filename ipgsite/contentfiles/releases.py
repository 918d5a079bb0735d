"""Releases in content/releases/<date>.toml: each a full snapshot, every section as the release froze it.

`content/sections/*.toml` is the working text; a release file never depends on it, so no edit of the working
text (in the files or in the admin) can change a published release. A release file is written once, when the
release is exported after publishing, and stays byte for byte the same afterwards (git stores the repeated text
compressed):

    date = "2024-09-23"

    [title]
    en = "…"

    [announcement]
    en = "https://…"

    [[sections]]
    number = "2.3"
    order = 23
    penalty = "warning"
    title = { en = "…", zh-hans = "…", ja = "…" }

    [[sections.paragraphs]]
    key = "definition-1"
    part = "definition"
    en = "…"                # the text in each language it had then; a missing one is left out
    ja = "…"

    [[sections.notes]]      # after the paragraph it annotates, as in a section file
    paragraph = "definition-1"
    language = "ja"
    source = "Japanese annotated edition"
    ja = "…"

Loading makes the database hold the releases of the files, but never changes what it already froze for a date:
a file that disagrees with it is refused, naming the first paragraph that differs, unless that release is
named to be replaced (`loadcontent --replace-release DATE`). Nor does it delete a release the files do not have (one
published since the last export): it is kept, and reported. Only `deleterelease DATE` deletes one.
"""

import re
from functools import cached_property
from pathlib import Path

from django.db import transaction

from ipgsite.editing import writing
from ipgsite.editing.writing import CONTENT_FILES
from ipgsite.ipg import languages
from ipgsite.ipg.models import KEY_PATTERN, NUMBER_PATTERN, Part, Penalty
from ipgsite.releases.changes import record_changes
from ipgsite.releases.models import Release, parse_date
from ipgsite.releases.snapshots import first_difference, state_of, store

from .toml import ContentError, File, Lines, load_toml, toml_string

LANGUAGES = languages.CODES

HEADER = (
    "# An IPG release: its title and announcement, then every section as this release froze it.\n"
    "# A published release never changes: edit content/sections, and publish a new release.\n"
)
RELEASE_FIELDS = {"date", "title", "announcement", "sections"}
SECTION_FIELDS = {"number", "order", "penalty", "title", "paragraphs", "notes"}
PARAGRAPH_FIELDS = {"key", "part", "bullet", *LANGUAGES}
NOTE_FIELDS = {"paragraph", "language", "source", *LANGUAGES}


# Writing


def _texts_lines(texts):
    return [f"{code} = {toml_string(texts[code])}" for code in LANGUAGES if code in texts]


def dump_release(release, state):
    """The file of a release: `release` its metadata ({"date", "title", "announcement"}), `state` what it froze
    ({number: (order, content)}), sections in reading order."""
    lines = [HEADER.rstrip("\n"), f"date = {toml_string(release['date'])}"]
    for header in ("title", "announcement"):
        if release.get(header):
            lines += ["", f"[{header}]", *_texts_lines(release[header])]
    for number, (order, content) in sorted(state.items(), key=lambda item: (item[1][0], item[0])):
        title = ", ".join(
            f"{code} = {toml_string(content['title'][code])}" for code in LANGUAGES if code in content["title"]
        )
        lines += [
            "",
            "[[sections]]",
            f"number = {toml_string(number)}",
            f"order = {order}",
            f"penalty = {toml_string(content['penalty'])}",
            f"title = {{ {title} }}",
        ]
        for paragraph in content["paragraphs"]:
            lines += [
                "",
                "[[sections.paragraphs]]",
                f"key = {toml_string(paragraph['key'])}",
                f"part = {toml_string(paragraph['part'])}",
            ]
            if paragraph["bullet"]:
                lines.append("bullet = true")
            lines += _texts_lines(paragraph["texts"])
            for note in paragraph["notes"]:
                lines += [
                    "",
                    "[[sections.notes]]",
                    f"paragraph = {toml_string(paragraph['key'])}",
                    f"language = {toml_string(note['language'])}",
                    f"source = {toml_string(note['source'])}",
                    *_texts_lines(note["bodies"]),
                ]
    return "\n".join(lines) + "\n"


def _metadata(release):
    return {
        "date": release.date.isoformat(),
        "title": languages.translations(release, "title"),
        "announcement": languages.translations(release, "announcement"),
    }


def release_texts():
    """{file name: text} for every release in the database."""
    return {
        f"{release.date.isoformat()}.toml": dump_release(_metadata(release), state_of(release))
        for release in Release.objects.newest_first().prefetch_related("sections")
    }


def export_releases(content_dir):
    """Write every release to content_dir/releases/; the number of files changed. A file whose release the
    database does not hold is left alone (`files_without_release` names them; `deleterelease` deletes one)."""
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
    return changed


def files_without_release(content_dir):
    """The release files in content_dir/releases/ whose release the database does not hold, by name."""
    held = {f"{date.isoformat()}.toml" for date in Release.objects.values_list("date", flat=True)}
    return sorted(path.name for path in (Path(content_dir) / "releases").glob("*.toml") if path.name not in held)


def releases_without_file(releases):
    """[(metadata, state)] of the database's releases that `releases` (read from files) do not have, newest first."""
    dates = [metadata["date"] for metadata, _state in releases]
    return [
        ({**_metadata(release), "date": release.date}, state_of(release))
        for release in Release.objects.exclude(date__in=dates).newest_first().prefetch_related("sections")
    ]


# Reading


class _ReleaseFile(File):
    """A release file being read. Where each key is written is worked out only when an error needs it: a release
    file holds the whole IPG, and finding every key's line would take longer than reading it."""

    def __init__(self, path, text):
        self.path, self.source = path, text

    @cached_property
    def lines(self):
        return Lines(self.source)


class _Places(dict):
    """{(number, key, note place or None): where the paragraph or note is written}, its line looked up when asked."""

    def __init__(self, file):
        super().__init__()
        self.file = file

    def line(self, place):
        return self.file.lines.of(*self[place]) if place in self else None


def _language_table(f, value, what, at):
    table = f.table(value, what, "a table of languages", at)
    f.fields(table, set(LANGUAGES), what, at)
    return f.texts(table, what, at)


def _section(f, table, index, lines, counts):
    """One [[sections]] table. `counts` are the [[sections.paragraphs]] and [[sections.notes]] tables before it, in
    the file: where its own are written (`Lines` numbers them across the whole file)."""
    at = ("sections", index)
    f.fields(table, SECTION_FIELDS, "a section", at)
    number = f.string(table.get("number"), "a section's number", (*at, "number"))
    if not re.fullmatch(NUMBER_PATTERN, number):
        raise f.error(f"section number {number!r} should look like 2.3, or A for an appendix", (*at, "number"))
    order = f.order(table.get("order"), f"section {number}: order", (*at, "order"))
    penalty = table.get("penalty", "")
    if penalty != "":
        f.choice(penalty, Penalty.values, f"section {number}: ", "penalty", (*at, "penalty"))
    title = _language_table(f, table.get("title"), f"section {number}: title", (*at, "title"))
    if languages.OFFICIAL not in title:
        raise f.error(f"section {number}: the title needs an {languages.OFFICIAL} title", (*at, "title"))

    paragraphs = {}
    for p, entry in enumerate(
        f.tables(table.get("paragraphs", []), "sections.paragraphs", "paragraph", (*at, "paragraphs"))
    ):
        pat = ("sections", "paragraphs", counts["paragraphs"] + p)
        f.fields(entry, PARAGRAPH_FIELDS, f"a paragraph of section {number}", pat)
        key = f.string(entry.get("key"), f"a paragraph's key in section {number}", (*pat, "key"))
        if not re.fullmatch(KEY_PATTERN, key):
            raise f.error(
                f"section {number}: paragraph key {key!r} must be lowercase letters and digits joined by hyphens",
                (*pat, "key"),
            )
        if key in paragraphs:
            raise f.error(f"section {number}: paragraph {key!r} is listed twice", (*pat, "key"))
        what = f"section {number}, paragraph {key!r}"
        part = f.choice(entry.get("part"), Part.values, f"{what}: ", "part", (*pat, "part"))
        bullet = entry.get("bullet", False)
        if not isinstance(bullet, bool):
            raise f.error(f"{what}: bullet must be true or false", (*pat, "bullet"))
        texts = f.texts(entry, what, pat)
        paragraphs[key] = {"key": key, "part": part, "bullet": bullet, "texts": texts, "notes": []}
        lines[number, key, None] = pat

    for n, entry in enumerate(f.tables(table.get("notes", []), "sections.notes", "note", (*at, "notes"))):
        nat = ("sections", "notes", counts["notes"] + n)
        f.fields(entry, NOTE_FIELDS, f"a note of section {number}", nat)
        key = f.string(entry.get("paragraph"), f"a note's paragraph in section {number}", (*nat, "paragraph"))
        if key not in paragraphs:
            raise f.error(f"section {number}: a note on paragraph {key!r}, which it does not have", (*nat, "paragraph"))
        place = len(paragraphs[key]["notes"]) + 1
        what = f"section {number}, note {place} on {key!r}"
        language = f.choice(entry.get("language"), LANGUAGES, f"{what}: ", "language", (*nat, "language"))
        source = f.string(entry.get("source"), f"{what}: source", (*nat, "source"))
        bodies = f.texts(entry, what, nat)
        if language not in bodies:
            raise f.error(f"{what}: no text in its own language {language!r}", nat)
        paragraphs[key]["notes"].append({"language": language, "source": source, "bodies": bodies})
        lines[number, key, place] = nat
    counts["paragraphs"] += len(table.get("paragraphs", []))
    counts["notes"] += len(table.get("notes", []))
    return number, (order, {"title": title, "penalty": penalty, "paragraphs": list(paragraphs.values())})


def parse_release(path):
    """(metadata, state, places) of a release file: its date, title and announcement; {number: (order, content)}
    as the release froze it; and where each paragraph and note is written (`_Places`)."""
    path = Path(path)
    text, data = load_toml(path)
    f = _ReleaseFile(path, text)
    f.fields(data, RELEASE_FIELDS, "the release")
    raw = data.get("date")
    date = parse_date(raw)
    if date is None:
        raise f.error(f'date must be a release date written as a string like "2024-09-23", not {raw!r}', ("date",))
    if path.stem != raw:
        raise f.error(f"release {raw} must be in a file named {raw}.toml", ("date",))
    release = {"date": date, "title": {}, "announcement": {}}
    if "title" in data:
        release["title"] = _language_table(f, data["title"], "[title]", ("title",))
    if "announcement" in data:
        release["announcement"] = _language_table(f, data["announcement"], "[announcement]", ("announcement",))
        for code, url in release["announcement"].items():
            if not re.match(r"https?://[^\s]+$", url):
                raise f.error(f"[announcement] {code} must be an http(s) address, not {url!r}", ("announcement", code))
    state, lines, orders, counts = {}, _Places(f), {}, {"paragraphs": 0, "notes": 0}
    for index, table in enumerate(f.tables(data.get("sections", []), "sections", "section", ("sections",))):
        number, (order, content) = _section(f, table, index, lines, counts)
        if number in state:
            raise f.error(f"section {number} is listed twice", ("sections", index, "number"))
        if order in orders:
            raise f.error(f"section {number}: order {order} is already section {orders[order]}'s", ("sections", index))
        state[number], orders[order] = (order, content), number
    return release, state, lines


def read_releases(content_dir):
    """[(metadata, state)] of every release file, newest first; raises ContentError naming the file."""
    return [(release, state) for _path, release, state, _lines in _read(content_dir)]


def _read(content_dir):
    paths = sorted((Path(content_dir) / "releases").glob("*.toml"), reverse=True)
    return [(path, *parse_release(path)) for path in paths]


# Comparing a file with what the database froze


def check_agrees(path, release, state, lines):
    """Raise ContentError unless the file's `state` is what the database froze for its date (if it holds it)."""
    held = Release.objects.filter(date=release["date"]).first()
    if held is None:
        return
    difference = first_difference(state_of(held), state)
    if difference is None:
        return
    number, key, place, what = difference
    date = release["date"].isoformat()
    where = f"section {number}"
    if key:
        where += f", note {place} on paragraph {key!r}" if place else f", paragraph {key!r}"
    raise ContentError(
        path,
        f"release {date} disagrees with what the database froze for it, first at {where}: {what}. A published "
        f"release never changes; to replace it with this file, run loadcontent --replace-release {date}",
        lines.line((number, key, place)),
    )


@transaction.atomic
def load_releases(content_dir, replace=()):
    """Make the database hold the releases in content_dir/releases/, a file with an error changing nothing. A file
    that disagrees with what the database froze for its date is refused, unless its date is in `replace`; the
    database's releases with no file are kept (`kept`: their dates, newest first). Each release's changes are
    recorded again where needed."""
    releases = _read(content_dir)
    for path, release, state, lines in releases:
        if release["date"] not in replace:
            check_agrees(path, release, state, lines)
    stats = {"created": 0, "updated": 0}
    with writing.batch(CONTENT_FILES) as batch:
        _load(releases, stats)
        batch.releases_changed = True
    stats["kept"] = list(
        Release.objects.exclude(date__in=[r["date"] for _p, r, _s, _l in releases])
        .newest_first()
        .values_list("date", flat=True)
    )
    return stats


def _load(releases, stats):
    for _path, metadata, state, _lines in releases:
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
    record_changes()
