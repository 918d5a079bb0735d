"""Releases as data: freezing the working text, a section as a release froze it, and what changed between two.

A frozen section is plain data (see `FrozenSection`): paragraphs are paired across releases by their
key, and a paragraph's notes by their place among its notes. No similarity is guessed.
"""

import difflib
from dataclasses import dataclass, field
from itertools import pairwise

from ipgsite.ipg import languages
from ipgsite.ipg.documents import documents_from_database

from .models import FrozenSection, Release, digest


def frozen_from_doc(doc):
    """(order, content) of a section document (`ipg.contentfiles.SectionDoc`), as a release freezes it."""
    notes = {}
    for note in doc.notes:
        notes.setdefault(note.paragraph, []).append(
            {"language": note.language, "source": note.source, "bodies": dict(note.bodies)}
        )
    paragraphs = [
        {"key": p.key, "part": p.part, "bullet": p.bullet, "texts": dict(p.texts), "notes": notes.get(p.key, [])}
        for p in doc.paragraphs
    ]
    return doc.order, {"title": dict(doc.title), "penalty": doc.penalty, "paragraphs": paragraphs}


def working_text():
    """The database's current text, frozen: {number: (order, content)}."""
    _chapters, docs = documents_from_database()
    return {doc.number: frozen_from_doc(doc) for doc in docs}


def store(release, state):
    """Replace what `release` froze with `state` ({number: (order, content)})."""
    release.sections.all().delete()
    FrozenSection.objects.bulk_create(
        FrozenSection(release=release, number=number, order=order, content=content, digest=digest(content))
        for number, (order, content) in state.items()
    )


def state_of(release):
    """{number: (order, content)} of a release."""
    return {s.number: (s.order, s.content) for s in release.sections.all()}


def section_as_of(release, number):
    """The section as `release` froze it, or None if it did not exist then.

    {"number", "order", "title": {code: text}, "penalty", "paragraphs": [{"key", "part", "bullet",
    "order", "texts": {code: text}, "notes": [{"order", "language", "source", "bodies": {code: text}}]}]}
    """
    frozen = release.sections.filter(number=number).first()
    if frozen is None:
        return None
    content = frozen.content
    paragraphs = []
    for order, paragraph in enumerate(content["paragraphs"], 1):
        notes = [{"order": n, **note} for n, note in enumerate(paragraph["notes"], 1)]
        paragraphs.append({**paragraph, "order": order, "notes": notes})
    return {
        "number": frozen.number,
        "order": frozen.order,
        "title": content["title"],
        "penalty": content["penalty"],
        "paragraphs": paragraphs,
    }


# What changed


@dataclass
class TextChange:
    """One paragraph, or one note on a paragraph, as it was (`old`) and is (`new`); None where absent."""

    key: str
    old: dict | None
    new: dict | None
    note: int | None = None  # the note's place among its paragraph's notes; None for the paragraph itself
    moved: bool = False

    @property
    def field(self):
        return "texts" if self.note is None else "bodies"

    @property
    def status(self):
        if self.old is None:
            return "added"
        if self.new is None:
            return "removed"
        return "changed" if self.old != self.new else "moved"

    def text(self, which, code):
        version = getattr(self, which)
        return (version or {}).get(self.field, {}).get(code, "")

    def changed_in(self):
        """The languages whose text differs, in the site's order."""
        return [code for code in languages.CODES if self.text("old", code) != self.text("new", code)]

    def attribute(self, name):
        """(old, new) of `part`, `bullet`, `language` or `source` when both exist and differ, else None."""
        if self.old is None or self.new is None or self.old.get(name) == self.new.get(name):
            return None
        return self.old.get(name), self.new.get(name)

    @property
    def current(self):
        return self.new if self.new is not None else self.old


@dataclass
class SectionChange:
    number: str
    order: int
    old: dict | None
    new: dict | None
    changes: list = field(default_factory=list)

    @property
    def status(self):
        if self.old is None:
            return "added"
        if self.new is None:
            return "removed"
        return "changed"

    @property
    def current(self):
        return self.new if self.new is not None else self.old

    def title(self, code):
        return self.current["title"].get(code, "")

    @property
    def title_change(self):
        if self.old and self.new and self.old["title"] != self.new["title"]:
            return self.old["title"], self.new["title"]
        return None

    @property
    def penalty_change(self):
        if self.old and self.new and self.old["penalty"] != self.new["penalty"]:
            return self.old["penalty"], self.new["penalty"]
        return None


def _notes_changes(key, old_notes, new_notes):
    changes = []
    for index in range(max(len(old_notes), len(new_notes))):
        old = old_notes[index] if index < len(old_notes) else None
        new = new_notes[index] if index < len(new_notes) else None
        if old != new:
            changes.append(TextChange(key=key, old=old, new=new, note=index + 1))
    return changes


def _paragraph_changes(old_content, new_content):
    old = {p["key"]: p for p in (old_content or {}).get("paragraphs", [])}
    new = {p["key"]: p for p in (new_content or {}).get("paragraphs", [])}
    old_keys, new_keys = list(old), list(new)
    common_old = [k for k in old_keys if k in new]
    common_new = [k for k in new_keys if k in old]
    kept = set()
    for block in difflib.SequenceMatcher(None, common_old, common_new, autojunk=False).get_matching_blocks():
        kept.update(common_old[block.a : block.a + block.size])

    # Reading order: the newer one, with each removed paragraph after the one it followed.
    sequence = list(new_keys)
    for index, key in enumerate(old_keys):
        if key not in new:
            before = next((k for k in reversed(old_keys[:index]) if k in sequence), None)
            sequence.insert(sequence.index(before) + 1 if before else 0, key)

    changes = []
    for key in sequence:
        o, n = old.get(key), new.get(key)
        o_text = {k: v for k, v in o.items() if k != "notes"} if o else None
        n_text = {k: v for k, v in n.items() if k != "notes"} if n else None
        moved = bool(o and n and key not in kept)
        if o_text != n_text or moved:
            changes.append(TextChange(key=key, old=o_text, new=n_text, moved=moved))
        changes += _notes_changes(key, (o or {}).get("notes", []), (n or {}).get("notes", []))
    return changes


def _differing(older, newer):
    """The numbers of the sections whose frozen content differs between two releases."""
    before = dict(older.sections.values_list("number", "digest"))
    after = dict(newer.sections.values_list("number", "digest"))
    return {number for number in set(before) | set(after) if before.get(number) != after.get(number)}


def changes_between(older, newer):
    """What changed from release `older` (None: nothing before) to `newer`: a SectionChange for each
    section that differs, in the newer reading order (removed sections where they were)."""
    if older is None:
        return []
    numbers = _differing(older, newer)
    before = {s.number: (s.order, s.content) for s in older.sections.filter(number__in=numbers)}
    after = {s.number: (s.order, s.content) for s in newer.sections.filter(number__in=numbers)}
    result = []
    for number in numbers:
        old_order, old = before.get(number, (None, None))
        new_order, new = after.get(number, (None, None))
        change = SectionChange(number=number, order=new_order if new else old_order, old=old, new=new)
        change.changes = _paragraph_changes(old, new)
        result.append(change)
    return sorted(result, key=lambda c: (c.order, c.number))


def first_difference(frozen, state):
    """Where `state` (a release file's) first differs from `frozen` (the database's), in reading order:
    (number, key or None, note place or None, what), or None when they agree."""
    for number in sorted(set(frozen) | set(state), key=lambda n: ((frozen.get(n) or state.get(n))[0], n)):
        if number not in frozen:
            return number, None, None, "a section the release did not hold"
        if number not in state:
            return number, None, None, "missing, though the release holds it"
        (old_order, old), (new_order, new) = frozen[number], state[number]
        if old_order != new_order:
            return number, None, None, f"order {new_order}, not {old_order}"
        if old["title"] != new["title"]:
            return number, None, None, "its title"
        if old["penalty"] != new["penalty"]:
            return number, None, None, f"penalty {new['penalty']!r}, not {old['penalty']!r}"
        old_paragraphs = {p["key"]: p for p in old["paragraphs"]}
        new_paragraphs = {p["key"]: p for p in new["paragraphs"]}
        for paragraph in new["paragraphs"]:
            key = paragraph["key"]
            held = old_paragraphs.get(key)
            if held is None:
                return number, key, None, "a paragraph the release did not hold"
            for name in ("part", "bullet"):
                if held[name] != paragraph[name]:
                    return number, key, None, f"its {name}"
            for code in languages.CODES:
                if held["texts"].get(code) != paragraph["texts"].get(code):
                    return number, key, None, f"its {code} text"
            for place in range(1, max(len(held["notes"]), len(paragraph["notes"])) + 1):
                if held["notes"][place - 1 : place] != paragraph["notes"][place - 1 : place]:
                    return number, key, place, "the note"
        for key in old_paragraphs:
            if key not in new_paragraphs:
                return number, key, None, "missing, though the release holds it"
        if list(old_paragraphs) != list(new_paragraphs):
            return number, None, None, "the order of its paragraphs"
    return None


def changed_section_count(older, newer):
    return len(_differing(older, newer)) if older else 0


@dataclass
class LastChange:
    """The newest release in effect that changed a section, and the paragraphs it changed (none for the first)."""

    release: object
    first: bool
    keys: set


def last_change(number):
    """The newest release in effect in which section `number` differs from the release before, or the release
    that first holds it; None when no release holds it."""
    frozen = list(
        FrozenSection.objects.filter(number=number, release__in=Release.objects.in_effect())
        .select_related("release")
        .order_by("-release__date")
        .only("digest", "release")
    )
    for newer, older in pairwise(frozen):
        if newer.digest != older.digest:
            changes = _paragraph_changes(older.content, newer.content)
            return LastChange(release=newer.release, first=False, keys={change.key for change in changes})
    if not frozen:
        return None
    oldest = frozen[-1]
    is_first = not Release.objects.filter(date__lt=oldest.release.date).exists()
    return LastChange(release=oldest.release, first=is_first, keys=set())


def english_in_releases(number=None):
    """{(number, key): [(date, English)]}, newest release first: each paragraph's English in each release
    (of section `number` only, if given)."""
    return texts_in_releases(number)[0]


def notes_in_releases(number=None):
    """{(number, key, place): [(date, {code: body})]}, newest release first: each note's text in each release (of
    section `number` only, if given), the note named by its paragraph and its place (1, 2, …) among that
    paragraph's notes, as releases pair notes."""
    return texts_in_releases(number)[1]


def texts_in_releases(number=None):
    """(english_in_releases(number), notes_in_releases(number)), read once."""
    return _held(_frozen(number))


def texts_in_release_files(releases):
    """(english_in_releases(), notes_in_releases()) of releases read from files (`releases.files.read_releases`),
    before they are loaded."""
    return _held(
        (metadata["date"].isoformat(), number, content)
        for metadata, state in releases
        for number, (_order, content) in state.items()
    )


def _frozen(number=None):
    """(date, number, content) of every frozen section (of section `number` only, if given), newest release first."""
    frozen_sections = FrozenSection.objects.select_related("release").order_by("-release__date")
    for frozen in frozen_sections.filter(number=number) if number else frozen_sections:
        yield frozen.release.date.isoformat(), frozen.number, frozen.content


def _held(frozen):
    english, notes = {}, {}
    for date, number, content in frozen:
        for paragraph in content["paragraphs"]:
            key = paragraph["key"]
            english.setdefault((number, key), []).append((date, paragraph["texts"].get(languages.SOURCE, "")))
            for place, note in enumerate(paragraph["notes"], 1):
                notes.setdefault((number, key, place), []).append((date, note["bodies"]))
    return english, notes
