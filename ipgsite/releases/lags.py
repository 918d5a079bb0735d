"""The translations that follow an older source than the current one, as readers are told of them: a paragraph's
English, or a note's original, as a release on this site held it."""

from dataclasses import dataclass, field

from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from ipgsite.editing.models import Status
from ipgsite.ipg import languages
from ipgsite.ipg.models import Note

from .diffing import diff_html

UNKNOWN = "unknown"  # follows an older English that no release on this site holds

SOURCE = languages.SOURCE


def newest_holding(held, source):
    """The date of the newest release in `held` ([(date, text)], newest first) that holds `source`, or UNKNOWN."""
    for date, text in held:
        if source and text == source:
            return date
    return UNKNOWN


def originals_in_releases(notes_in_releases, number, key, place, language):
    """[(date, original)], newest first: the note's text in `language` in each release, at the note's place."""
    return [(date, bodies.get(language, "")) for date, bodies in notes_in_releases.get((number, key, place), [])]


@dataclass
class Lag:
    """A translation that follows an older source than the current one, as a reader is told of it: a paragraph's
    English, or a note's original."""

    language: str
    release: str  # the date of the release whose source it follows; "" when no release holds that source
    diff: str  # the source's changes since, as HTML; "" when the source it follows is unknown
    original: str = ""  # a note's: the language its original is in; "" for a paragraph, which follows the English


@dataclass
class Lags:
    """A section's translations that follow an older source, as its page looks them up."""

    paragraphs: dict = field(default_factory=dict)  # {key: {code: Lag}}
    notes: dict = field(default_factory=dict)  # {note id: {code: Lag}}

    def of(self, obj, code):
        """The Lag of the paragraph's or note's translation into `code`, or None."""
        lags = self.notes.get(obj.pk) if isinstance(obj, Note) else self.paragraphs.get(obj.key)
        return (lags or {}).get(code)


def lags_in(section):
    """The section's translations, of its paragraphs and their notes, that follow an older source than the current
    one, read in one query (and, if there are any, the releases' texts and the notes' places in one more each)."""
    from ipgsite.releases.snapshots import texts_in_releases

    outdated = list(Status.everything.in_section(section).outdated().select_related("paragraph", "note"))
    in_releases, notes_in_releases = texts_in_releases(section.number) if outdated else ({}, {})
    notes = Note.objects.filter(paragraph__section=section).only("pk", "paragraph_id", "order")
    places = {n.pk: place for n, place in notes.places().items()} if any(s.note_id for s in outdated) else {}
    lags = Lags()
    for status in outdated:
        key = status.paragraph.key
        if status.note_id:
            note = status.note
            held = originals_in_releases(notes_in_releases, section.number, key, places[note.pk], note.language)
            lag = _lag(status, held, note.body_in(note.language), original=note.language)
            lags.notes.setdefault(note.pk, {})[status.language] = lag
        else:
            lag = _lag(status, in_releases.get((section.number, key), []), status.paragraph.text_in(SOURCE))
            lags.paragraphs.setdefault(key, {})[status.language] = lag
    return lags


def _lag(status, held, source, original=""):
    """The Lag of an outdated translation whose source is now `source`, releases having held [(date, source)]."""
    release = newest_holding(held, status.confirmed_source)
    diff = diff_html(status.confirmed_source, source) if status.confirmed_source else ""
    return Lag(language=status.language, release="" if release == UNKNOWN else release, diff=diff, original=original)


# A note's original, in the language it is in, as the mark on its outdated translation names it to the reader.
ORIGINALS = {
    "en": _("the note's English original"),
    "zh-hans": _("the note's Chinese original"),
    "ja": _("the note's Japanese original"),
}


def mark_lag(text, html, page):
    """A text layer of the reading pages (settings.READING_LAYERS): after a paragraph's or note's translation that
    follows an older source, the mark that says so, in the reader's language. The section's lags are read once per
    page; a missing translation, and an older release's frozen text, have none."""
    obj = text.obj
    if text.missing or obj is None or obj.pk is None:
        return html
    lags, section_id = page.setdefault("lags", {}), text.paragraph.section_id
    if section_id not in lags:
        lags[section_id] = lags_in(text.paragraph.section)
    lag = lags[section_id].of(obj, text.code)
    if lag is None:
        return html
    mark = render_to_string(
        "releases/lag_mark.html",
        {
            "lag": lag,
            "anchor": f"note-{obj.pk}" if isinstance(obj, Note) else obj.key,
            "original": ORIGINALS.get(lag.original, ""),
            "LANGUAGE_CODE": get_language(),
        },
    )
    return mark_safe(f"{html}{mark}")
