"""The translate page's texts: each paragraph of a section in the target language, with its notes, the text shown
beside it, its status, and for an outdated translation what it follows and what changed in its source since."""

import re
from dataclasses import dataclass, field

from django.db.models import Prefetch
from django.utils.safestring import mark_safe

from ipgsite.contentfiles.statuses import followed_release
from ipgsite.editing.models import State, Status
from ipgsite.editing.statuses import source_of
from ipgsite.ipg import languages
from ipgsite.ipg.markup import render_markdown
from ipgsite.ipg.models import Note
from ipgsite.releases.diffing import diff_html
from ipgsite.releases.lags import UNKNOWN, newest_holding, originals_in_releases
from ipgsite.releases.snapshots import english_in_releases, notes_in_releases

from . import memory

# A phrase a status's remark quotes ("lacks “printed on the card”"): at most this long, and only a few per remark.
QUOTED = re.compile(r"[\"“「『]([^\"”」』\n]{3,200})[\"”」』]")
MAX_QUOTED = 10
OPEN, CLOSE = "\ue000", "\ue001"  # around a phrase in the Markdown, through the renderer, then <mark>
MARKED = re.compile(f"{OPEN}([^<{OPEN}{CLOSE}]*){CLOSE}")


def quoted_in(text, remark):
    """The phrases a remark quotes that `text` holds, longest first."""
    found = {phrase for phrase in QUOTED.findall(remark)[:MAX_QUOTED] if phrase in text}
    return sorted(found, key=len, reverse=True)


def render_marked(text, phrases):
    """The Markdown rendered as a public page renders it, with each phrase in <mark> (where a phrase crosses the
    Markdown's own markup, it is left unmarked)."""
    if phrases:
        pattern = re.compile("|".join(re.escape(phrase) for phrase in phrases))
        text = pattern.sub(lambda match: f"{OPEN}{match.group(0)}{CLOSE}", text)
    html = MARKED.sub(r"<mark>\1</mark>", str(render_markdown(text)))
    return mark_safe(html.replace(OPEN, "").replace(CLOSE, ""))  # the sanitized HTML, with marks of our own


@dataclass
class Item:
    """One paragraph or note on the translate page, in the target language."""

    obj: object
    name: str
    text: str
    revision: int
    reference: tuple  # (code, html) of the text shown beside it
    status: object = None
    notes: list = field(default_factory=list)
    conflict: object = None
    errors: list = field(default_factory=list)
    preview: str = ""
    kept: bool = False  # the textarea holds the translator's unsaved text
    form: object = None  # the ItemForm that shows it
    suggestions: list = field(default_factory=list)  # memory.Suggestion: similar texts translated elsewhere
    # For an outdated translation: the date of the release whose English (a note's: whose original) it follows, or
    # UNKNOWN.
    follows: str = ""
    # Whether the page shows this text's field: without a filter, or in the state the page is filtered to.
    editable: bool = True
    can_review: bool = False  # the user may mark it reviewed (actions.ReviewTranslation)
    marked: bool = False  # the source shown beside it marks what the translation lacks

    @property
    def is_note(self):
        return isinstance(self.obj, Note)

    @property
    def anchor(self):
        return f"note-{self.obj.pk}" if self.is_note else self.obj.key

    @property
    def paragraph(self):
        return self.obj.paragraph if self.is_note else self.obj

    @property
    def position(self):
        """Where it stands in reading order: section, paragraph, then the paragraph's own text before its notes."""
        note = self.obj if self.is_note else None
        return (self.paragraph.section.order, self.paragraph.order, note.order if note else -1, note.pk if note else 0)

    @property
    def follows_unknown(self):
        return self.follows == UNKNOWN

    @property
    def outdated(self):
        return self.status is not None and self.status.state == State.OUTDATED

    @property
    def source_language(self):
        return source_of(self.obj)[0]

    @property
    def english_diff(self):
        """The source's changes since the source this translation follows ("" when that source is unknown)."""
        if self.outdated and self.status.confirmed_source:
            return diff_html(self.status.confirmed_source, source_of(self.obj)[1])
        return ""

    @property
    def remark(self):
        """Why the translation is outdated, as its status records it (content/'s comments): what it lacks."""
        return self.status.remark if self.outdated else ""

    def mark_what_it_lacks(self):
        """When the source it follows is unknown: the phrases of the source the remark says the translation lacks,
        marked in the source shown beside it."""
        code, _html = self.reference
        language, source = source_of(self.obj)
        if self.outdated and not self.status.confirmed_source and code == language:
            phrases = quoted_in(source, self.status.remark)
            if phrases:
                self.reference, self.marked = (code, render_marked(source, phrases)), True

    @property
    def state(self):
        return self.status.state if self.status is not None else None

    def editable_with(self, wanted):
        """Whether the page, filtered to one state, shows this text to edit: it is in that state, or holds what the
        translator typed and has not saved (kept, refused, in conflict)."""
        return wanted is None or self.state == wanted or self.kept or self.conflict is not None or bool(self.errors)

    def shown_with(self, wanted):
        """Whether the page, filtered to one state, shows this paragraph: its text or one of its notes is to edit
        (a paragraph shown for its notes shows its own text to read only)."""
        return self.editable_with(wanted) or any(note.editable_with(wanted) for note in self.notes)

    def filter_to(self, wanted):
        self.editable = self.editable_with(wanted)
        for note in self.notes:
            note.editable = note.editable_with(wanted)

    def keep(self, text, revision):
        """The translator's text stays in the field, unsaved, with the revision they started from."""
        self.text, self.revision, self.kept = text, revision, True

    def reload(self, code):
        """After a save: the text, revision and status as stored (what the save set off has run)."""
        obj = type(self.obj).objects.get(pk=self.obj.pk)
        self.obj, self.text, self.revision, self.kept = obj, text_in(obj, code), obj.revision, False
        if self.is_note:
            self.status = Status.of_notes.filter(note=obj, language=code).first()
        else:
            self.status = Status.objects.get(paragraph=obj, language=code)


def text_in(obj, code):
    return obj.body_in(code) if isinstance(obj, Note) else obj.text_in(code)


def reference(obj, code, field_name):
    """The text shown beside the editor: in the chosen reference language, else the first that has it."""
    for candidate in [code, *languages.CODES]:
        value = languages.translated(obj, field_name, candidate)
        if value:
            return candidate, render_markdown(value)
    return "", ""


def section_items(section, code, reference_code):
    """The section's paragraphs in `code`, each with its notes, read in a few queries whatever their number."""
    note_statuses = Prefetch("statuses", queryset=Status.of_notes.filter(language=code), to_attr="target_statuses")
    notes = Prefetch("notes", queryset=Note.objects.order_by("order", "pk").prefetch_related(note_statuses))
    statuses = Prefetch(
        "statuses",
        queryset=Status.objects.filter(language=code).select_related("paragraph__section"),
        to_attr="target_statuses",
    )
    items, in_releases, notes_held = [], None, None
    for paragraph in section.paragraphs.order_by("order").prefetch_related(notes, statuses):
        item = Item(
            obj=paragraph,
            name=f"p-{paragraph.key}",
            text=paragraph.text_in(code),
            revision=paragraph.revision,
            reference=reference(paragraph, reference_code, "text"),
            status=paragraph.target_statuses[0] if paragraph.target_statuses else None,
        )
        if item.outdated:
            if in_releases is None:
                in_releases = english_in_releases(section.number)
            item.follows = followed_release(item.status, in_releases)
            item.mark_what_it_lacks()
        for place, note in enumerate(paragraph.notes.all(), 1):
            note_item = Item(
                obj=note,
                name=f"n-{note.pk}",
                text=note.body_in(code),
                revision=note.revision,
                reference=reference(note, reference_code if note.body_in(reference_code) else note.language, "body"),
                status=note.target_statuses[0] if note.target_statuses else None,
            )
            if note_item.outdated:
                # The release that holds the original it follows, if one does; UNKNOWN only when the site has no
                # copy of that original at all, since the diff from the one it does have is shown.
                if notes_held is None:
                    notes_held = notes_in_releases(section.number)
                held = originals_in_releases(notes_held, section.number, paragraph.key, place, note.language)
                confirmed = note_item.status.confirmed_source
                release = newest_holding(held, confirmed)
                note_item.follows = release if release != UNKNOWN else UNKNOWN if not confirmed else ""
                note_item.mark_what_it_lacks()
            item.notes.append(note_item)
        items.append(item)
    return items


def every_item(items):
    """The paragraphs and their notes, in page order."""
    for item in items:
        yield item
        yield from item.notes


def suggest(items, code):
    """Translation memory under each text whose reference is another language's."""
    for item in every_item(items):
        if item.reference[0] and item.reference[0] != code:
            item.suggestions = memory.suggest(item.obj, item.reference[0], code)


def reference_language(chosen, section, code):
    """The language shown beside the fields: the one asked for, else the first other one the section has."""
    if chosen in languages.CODES and chosen != code:
        return chosen
    others = [c for c in languages.CODES if c != code]
    return next((c for c in others if section.paragraphs.translated_into(c).exists()), others[0])
