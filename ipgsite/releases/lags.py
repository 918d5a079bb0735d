"""The translations that follow an older source than the current one, as readers are told of them: a paragraph's
English, or a note's original, as a release on this site held it."""

from dataclasses import dataclass, field

from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from ipgsite.editing.models import Status
from ipgsite.ipg import languages
from ipgsite.ipg.models import Note, Section

from .diffing import diff_html
from .models import Release
from .snapshots import section_as_of, texts_in_releases

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
    notes: dict = field(default_factory=dict)  # {note id, or (key, place) for a release's: {code: Lag}}

    def of(self, obj, code):
        """The Lag of the paragraph's or note's translation into `code`, or None: a stored one, or one a release
        froze (`reading.Frozen`, whose notes are known by their paragraph's key and their place under it)."""
        if is_frozen(obj):
            key = (obj.paragraph_key, obj.place) if hasattr(obj, "paragraph_key") else None
            lags = self.notes.get(key) if key else self.paragraphs.get(obj.key)
        else:
            lags = self.notes.get(obj.pk) if isinstance(obj, Note) else self.paragraphs.get(obj.key)
        return (lags or {}).get(code)


def is_frozen(obj):
    """A paragraph or note as a release froze it (`releases.reading.Frozen`): no row behind it, and its release."""
    return getattr(obj, "pk", 0) is None and bool(getattr(obj, "release", ""))


def lags_in(section):
    """The section's translations, of its paragraphs and their notes, that follow an older source than the current
    one, read in one query (and, if there are any, the releases' texts and the notes' places in one more each)."""
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


def lags_in_release(date, number):
    """The translations of section `number` that follow an older source than the release of `date` froze beside
    them. A translation that release froze is known to lag there when it is still the stored translation and its
    status follows another source than that release's English (or the note's original, at its place): the same text
    beside the same English lags the same. A translation replaced since has no status left to say, and no mark."""
    release, section = Release.objects.filter(date=date).first(), Section.objects.filter(number=number).first()
    content = section_as_of(release, number) if release and section else None
    lags = Lags()
    if content is None:
        return lags
    outdated = list(Status.everything.in_section(section).outdated().select_related("paragraph", "note"))
    if not outdated:
        return lags
    frozen = {p["key"]: p for p in content["paragraphs"]}
    in_releases, notes_in_releases = texts_in_releases(number)
    notes = Note.objects.filter(paragraph__section=section).only("pk", "paragraph_id", "order")
    places = {n.pk: place for n, place in notes.places().items()}
    for status in outdated:
        key, code = status.paragraph.key, status.language
        paragraph = frozen.get(key)
        if paragraph is None:
            continue
        if status.note_id:
            note, place = status.note, places[status.note_id]
            held = paragraph["notes"][place - 1] if place <= len(paragraph["notes"]) else None
            if held is None or held["bodies"].get(code, "") != note.body_in(code):
                continue
            source = held["bodies"].get(note.language, "")
            if status.confirmed_source != source:
                originals = originals_in_releases(notes_in_releases, number, key, place, note.language)
                lag = _lag(status, originals, source, original=note.language)
                lags.notes.setdefault((key, place), {})[code] = lag
        elif paragraph["texts"].get(code, "") == status.paragraph.text_in(code):
            source = paragraph["texts"].get(SOURCE, "")
            if status.confirmed_source != source:
                lags.paragraphs.setdefault(key, {})[code] = _lag(status, in_releases.get((number, key), []), source)
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


def lag_of(obj, code, found=None):
    """The Lag of a paragraph's or note's translation into `code` (stored, or as a release froze it), or None.
    `found` keeps each section's lags, read once, for the next call: {section id or (date, number): Lags}."""
    found = {} if found is None else found
    if is_frozen(obj):
        at = (obj.release, obj.number)
        if at not in found:
            found[at] = lags_in_release(*at)
    else:
        paragraph = obj.paragraph if isinstance(obj, Note) else obj
        at = paragraph.section_id
        if at not in found:
            found[at] = lags_in(paragraph.section)
    return found[at].of(obj, code)


def mark_lag(text, html, page):
    """A text layer of the reading pages (settings.READING_LAYERS): after a paragraph's or note's translation that
    follows an older source, the mark that says so, in the reader's language, on every page that shows it (a
    section, a release's text, a paragraph's page, a reading list, the finder's quotes). Each section's lags are read
    once per page; a missing translation has none."""
    obj = text.obj
    if text.missing or obj is None or (obj.pk is None and not is_frozen(obj)):
        return html
    lag = lag_of(obj, text.code, page.setdefault("lags", {}))
    if lag is None:
        return html
    if is_frozen(obj):
        anchor = f"note-{obj.paragraph_key}-{obj.place}" if hasattr(obj, "paragraph_key") else obj.key
    else:
        anchor = f"note-{obj.pk}" if isinstance(obj, Note) else obj.key
    anchor = f"lag-{anchor}-{lag.language}"
    ids = page.setdefault("lag_ids", set())  # two sections' paragraphs on one page may share a key: one id each
    mark = lag_html(lag, "" if anchor in ids else anchor)
    ids.add(anchor)
    return mark_safe(f"{html}{mark}")


def lag_html(lag, id=""):
    """The mark of a Lag, in the active language: what the translation follows, and the changes since."""
    context = {"lag": lag, "id": id, "original": ORIGINALS.get(lag.original, ""), "LANGUAGE_CODE": get_language()}
    return render_to_string("releases/lag_mark.html", context)
