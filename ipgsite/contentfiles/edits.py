"""Edits made in the database since the last load or export: what a load of content/ would overwrite.

Each load and each export records the content files as the database would write them then (`editing.Checkpoint`).
The database holds an edit of its own when it would now write a file differently; who made it, and to what, is read
where the site records it (`editing.since`). A file that differs with nothing recorded behind it (a change made by
other means) is shown by its changed lines.
"""

import difflib
from dataclasses import dataclass, field

from django.utils import timezone

from ipgsite.editing.models import Checkpoint
from ipgsite.editing.since import checkpoint, differing, made_by_people, made_since

from .exporting import working_files

MAX_LINES = 6  # changed lines shown of a file nothing recorded explains
MAX_NAMED = 50  # edits named in one message
FILES = {"chapters": "chapters.toml", "terms": "terms.toml", "finder": "finder.toml"}


@dataclass
class EditedFile:
    """A content file the database would now write differently: `edits` name what changed in it, and who did."""

    name: str
    status: str = "changed"  # or "added" (no such file then), "removed" (no such file now)
    edits: list = field(default_factory=list)  # ["section 2.3, paragraph example-b [ja]: edited by alice", …]
    lines: list = field(default_factory=list)  # the changed lines, when nothing recorded names the edits


def record(action, directory, files=None):
    """After a load or an export: the database and the files in `directory` hold the same content."""
    return checkpoint(action, directory, working_files() if files is None else files)


def edits_since_sync():
    """[EditedFile] of the files the database would now write differently from the last load or export; [] if none.

    A database that holds no sections holds nothing a load would overwrite. One never loaded nor exported since loads
    were first recorded counts every change people made."""
    current = working_files()
    if not current:
        return []
    changed = differing(current)
    if changed is None:
        names = {_file_of(made.where) for made in made_by_people()} - {None}
        return _named([EditedFile(name=name) for name in sorted(names)], made_by_people())
    edited = [
        EditedFile(name=name, status="added" if before is None else "removed" if now is None else "changed")
        for name, before, now in changed
    ]
    last = Checkpoint.objects.last_one()
    _named(edited, made_since(last.last_change, last.at))
    for file, (_name, before, now) in zip(edited, changed, strict=True):
        if not file.edits:
            file.lines = _changed_lines(before or "", now or "")
    return edited


def _file_of(where):
    return f"sections/{where[1]}.toml" if where[0] == "section" else FILES.get(where[0])


def _named(edited, made):
    """Fill each file's `edits`: one line per paragraph, note or row, with what was done to it and by whom."""
    by_name = {file.name: file for file in edited}
    done = {}
    for item in made:
        name = _file_of(item.where)
        if name in by_name and item.done not in done.setdefault((name, item.what), []):
            done[name, item.what].append(item.done)
    for (name, what), actions in done.items():
        # Saving a translation confirms it: "confirmed" says something only of a text its editor did not save.
        editors = {action.removeprefix("edited by ") for action in actions if action.startswith("edited by ")}
        actions = [a for a in actions if a.removeprefix("confirmed by ") not in editors]
        by_name[name].edits.append(f"{what}: {'; '.join(actions)}")
    return edited


def _changed_lines(before, now):
    diff = difflib.unified_diff(before.splitlines(), now.splitlines(), lineterm="", n=0)
    lines = [line for line in diff if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    shown = [line if len(line) <= 100 else line[:99] + "…" for line in lines[:MAX_LINES]]
    return shown + ([f"… and {len(lines) - MAX_LINES} more changed lines"] if len(lines) > MAX_LINES else [])


def describe(edited):
    """The edits as the commands report them: one line per edit, under the file it is in."""
    last = Checkpoint.objects.last_one()
    when = f"({timezone.localtime(last.at):%Y-%m-%d %H:%M %Z}, {last.directory})" if last else ""
    since = f"since the last {last.action} {when}" if last else "(the database records no load or export)"
    lines = [f"The database holds edits made {since} that the content files do not have:"]
    for file in edited:
        lines.append(f"  {file.name}" + (f" ({file.status} in the database)" if file.status != "changed" else ""))
        lines += [f"    {what}" for what in file.edits]
        if file.lines:
            lines.append("    changed in the database, but not through a text's history or the admin:")
            lines += [f"      {line}" for line in file.lines]
    if len(lines) > MAX_NAMED:
        lines = [*lines[:MAX_NAMED], f"  … and {len(lines) - MAX_NAMED} more lines"]
    return "\n".join(lines)
