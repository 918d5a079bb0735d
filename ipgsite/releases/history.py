"""One paragraph across the releases: every release in effect in which it or its notes changed, newest first, with
the key it had then, its diffs (as the changes page shows them) and, for each translation, whether it followed the
English of that release.

Releases pair a paragraph with itself by key; a paragraph renamed since keeps its old keys (`ipg.FormerKey`), so a
release is read under whichever of them it holds. The work is bounded by design: one query for the section's frozen
rows (one per release), one for the stored "moved" marks, and a diff per changed text, each bounded by `diffing`.

Whether a translation followed the English of a release is known from the translation's status for the text it has
today (`Status.confirmed_source`, as the lag marks say), and, for a text it no longer has, inferred from the
releases: a translation changed in a release was made from that release's English. A text the paragraph had from the
first release that holds it, and no longer has, is "not known": no release records statuses.
"""

from dataclasses import dataclass, field

from ipgsite.editing.models import State, Status
from ipgsite.ipg import languages

from .changes import cell
from .lags import UNKNOWN, newest_holding
from .models import ChangedSection, FrozenSection, Release

SOURCE = languages.SOURCE

# What a translation in a release followed (`Following.state`).
FOLLOWS = "follows"  # this release's English
OLDER = "older"  # the English of an older release (`release`), or one no release holds (`release` "")
BEHIND = "behind"  # an older English than this release's; which one is not known
NOT_KNOWN = "not-known"
MISSING = "missing"


@dataclass
class Following:
    code: str
    state: str
    release: str = ""  # for OLDER: the date of the release whose English it follows; "" when none holds it


@dataclass
class NoteChange:
    place: int  # among the paragraph's notes, as releases pair notes
    status: str  # added, removed, changed
    language: str
    source: str
    cells: dict  # {code: cell}, as `changes.cell`


@dataclass
class Entry:
    """One release in which the paragraph or its notes changed."""

    release: Release
    previous: Release | None  # the release before it, if any
    status: str  # first, added, removed, changed, moved, renamed
    key: str  # the key the paragraph had in this release (in the one before, if it was removed here)
    renamed_from: str = ""  # its key in the release before, when it was renamed
    part: str = ""
    part_change: tuple | None = None
    bullet_change: tuple | None = None
    moved: bool = False
    cells: dict = field(default_factory=dict)  # {code: cell} of the paragraph's own text; {} when unchanged
    notes: list = field(default_factory=list)  # [NoteChange]
    following: dict = field(default_factory=dict)  # {code: Following} of each translation in this release


@dataclass
class Held:
    """The paragraph as one release froze it (None where the release does not hold it)."""

    release: Release
    paragraph: dict | None


def _found_in(content, keys, continuing):
    """The paragraph in a frozen section's content: under the key it had in the next release if that is one of
    `keys`' former keys, else under a former key (newest first), else its current key."""
    if content is None:
        return None
    by_key = {p["key"]: p for p in content["paragraphs"]}
    current, former = keys[0], keys[1:]
    order = ([continuing] if continuing in former else []) + former + [current]
    return next((by_key[key] for key in order if key in by_key), None)


def held_in_releases(number, key, former_keys):
    """[Held] in every release in effect, oldest first: the paragraph `key` of section `number` (or, in a release
    from before a rename, the paragraph under one of its `former_keys`, newest first)."""
    keys = [key, *reversed(former_keys)]
    frozen = {
        f.release_id: f.content
        for f in FrozenSection.objects.filter(number=number, release__in=Release.objects.in_effect()).only(
            "release_id", "content"
        )
    }
    held = [Held(release=r, paragraph=None) for r in Release.objects.in_effect().order_by("date")]
    # Read newest first, so that a release holding two candidate keys is read under the one its successor had.
    continuing = key
    for entry in reversed(held):
        entry.paragraph = _found_in(frozen.get(entry.release.pk), keys, continuing)
        if entry.paragraph is not None:
            continuing = entry.paragraph["key"]
    return held


def _texts(paragraph):
    return (paragraph or {}).get("texts", {})


def _own(paragraph):
    return {name: paragraph.get(name) for name in ("part", "bullet", "texts")} if paragraph else None


def _note_changes(old, new):
    old_notes, new_notes = (old or {}).get("notes", []), (new or {}).get("notes", [])
    changes = []
    for index in range(max(len(old_notes), len(new_notes))):
        before = old_notes[index] if index < len(old_notes) else None
        after = new_notes[index] if index < len(new_notes) else None
        if before == after:
            continue
        current = after or before
        status = "added" if before is None else "removed" if after is None else "changed"
        cells = {
            code: cell((before or {}).get("bodies", {}).get(code, ""), (after or {}).get("bodies", {}).get(code, ""))
            for code in languages.CODES
        }
        changes.append(NoteChange(index + 1, status, current["language"], current["source"], cells))
    return changes


def _attribute(old, new, name):
    if old is None or new is None or old.get(name) == new.get(name):
        return None
    return old.get(name), new.get(name)


class _Translations:
    """What each translation of the paragraph followed in each release (see the module's docstring)."""

    def __init__(self, paragraph, held):
        self.held = held
        self.today = {code: paragraph.text_in(code) for code in languages.CODES}
        self.english_today = paragraph.text_in(SOURCE)
        self.confirmed = {}
        for status in Status.objects.filter(paragraph=paragraph).exclude(language=SOURCE):
            outdated = status.state == State.OUTDATED
            self.confirmed[status.language] = status.confirmed_source if outdated else self.english_today

    def english_until(self, index):
        """[(date, English)] of the releases up to `index` that hold the paragraph, newest first."""
        return [
            (h.release.date.isoformat(), _texts(h.paragraph).get(SOURCE, ""))
            for h in reversed(self.held[: index + 1])
            if h.paragraph is not None
        ]

    def _older(self, index, source):
        """Following of a translation made from `source`, in the release at `index` whose English differs."""
        release = newest_holding(self.english_until(index), source)
        if release != UNKNOWN:
            return OLDER, release
        later = {_texts(h.paragraph).get(SOURCE, "") for h in self.held[index + 1 :] if h.paragraph}
        if source in later or source == self.english_today:
            return NOT_KNOWN, ""  # confirmed against a later English, the text unchanged since: not known then
        return OLDER, ""

    def following(self, code):
        """[Following] of the translation into `code` in each release (None where the release lacks the paragraph),
        in one pass from the oldest release."""
        found, before = [], None
        for index, now in enumerate(self.held):
            if now.paragraph is None:
                found.append(None)
                before = None
                continue
            texts, old = _texts(now.paragraph), _texts(before.paragraph) if before else None
            text, english = texts.get(code, ""), texts.get(SOURCE, "")
            if not text:
                state = Following(code, MISSING)
            elif text == self.today[code] and code in self.confirmed:  # today's text: its status says
                source = self.confirmed[code]
                state = Following(code, FOLLOWS) if source == english else Following(code, *self._older(index, source))
            elif old is None:
                state = Following(code, NOT_KNOWN)  # as the paragraph first came to a release: no status recorded
            elif old.get(code, "") != text:
                state = Following(code, FOLLOWS)  # translated again in this release: from its English
            elif old.get(SOURCE, "") == english:
                state = found[-1]
            elif found[-1].state == FOLLOWS:
                state = Following(code, OLDER, before.release.date.isoformat())
            elif found[-1].state == OLDER:
                state = found[-1]
            else:
                state = Following(code, BEHIND)
            found.append(state)
            before = now
        return found


def history_of(paragraph):
    """[Entry] of `paragraph` (a stored Paragraph), newest release first."""
    section = paragraph.section
    former_keys = list(paragraph.former_keys.order_by("pk").values_list("key", flat=True))
    held = held_in_releases(section.number, paragraph.key, former_keys)
    translations = _Translations(paragraph, held)
    moved = {
        (changed.release_id, item["key"])
        for changed in ChangedSection.objects.filter(number=section.number)
        for item in changed.changes["items"]
        if item["note"] is None and item["moved"]
    }
    following = {code: translations.following(code) for code in languages.CODES if code != SOURCE}
    entries = []
    for index, now in enumerate(held):
        before = held[index - 1] if index else None
        old, new = (before.paragraph if before else None), now.paragraph
        if old is None and new is None:
            continue
        key = (new or old)["key"]
        renamed_from = old["key"] if old and new and old["key"] != new["key"] else ""
        was_moved = new is not None and (now.release.pk, key) in moved and not renamed_from
        if before is None:
            status = "first"
        elif old is None:
            status = "added"
        elif new is None:
            status = "removed"
        elif _own(old) != _own(new) or old["notes"] != new["notes"]:
            status = "changed"
        elif renamed_from:
            status = "renamed"
        elif was_moved:
            status = "moved"
        else:
            continue
        entry = Entry(
            release=now.release,
            previous=before.release if before else None,
            status=status,
            key=key,
            renamed_from=renamed_from,
            part=(new or old)["part"],
            part_change=_attribute(old, new, "part"),
            bullet_change=_attribute(old, new, "bullet"),
            moved=was_moved,
        )
        if status == "first":  # nothing before it to compare with: its text as first recorded
            entry.cells = {code: cell(text, text) for code, text in _each(_texts(new))}
            entry.notes = [
                NoteChange(
                    place, "first", note["language"], note["source"], {c: cell(b, b) for c, b in _each(note["bodies"])}
                )
                for place, note in enumerate(new["notes"], 1)
            ]
        else:
            if _texts(old) != _texts(new):
                entry.cells = {code: cell(_texts(old).get(code, ""), text) for code, text in _each(_texts(new))}
            entry.notes = _note_changes(old, new)
        if new is not None:
            entry.following = {code: states[index] for code, states in following.items()}
        entries.append(entry)
    return list(reversed(entries))


def _each(texts):
    """(code, text) in every language, "" where it has none."""
    return [(code, texts.get(code, "")) for code in languages.CODES]
