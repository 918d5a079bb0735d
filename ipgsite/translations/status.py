"""Keeping each paragraph's status per language current, and showing what changed in the English."""

from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ipgsite.caching.versions import content_changed
from ipgsite.finder.models import Question
from ipgsite.ipg import languages
from ipgsite.ipg.contentfiles import ContentError, ParagraphDoc
from ipgsite.ipg.models import Note, Paragraph
from ipgsite.releases.diffing import diff_html
from ipgsite.terms.models import Term

from .models import State, Status

UNKNOWN = "unknown"  # follows an older English that no release on this site holds

SOURCE = languages.SOURCE


def follow(batch):
    """Statuses follow a batch of writes (ipgsite.derived): the edited paragraphs', and new paragraphs' first ones."""
    edits, note_edits = {}, {}
    for edit in batch.edits:
        if isinstance(edit.obj, Paragraph):
            edits.setdefault(edit.obj.pk, []).append(edit)
        elif isinstance(edit.obj, Note):
            note_edits.setdefault(edit.obj.pk, set()).add(edit.language)
    user = batch.by if getattr(batch.by, "is_authenticated", False) else None
    for paragraph in Paragraph.objects.filter(pk__in=edits).prefetch_related("statuses"):
        english = [edit for edit in edits[paragraph.pk] if edit.language == SOURCE]
        refresh_statuses(
            paragraph,
            changed={edit.language for edit in edits[paragraph.pk]},
            english_before=english[0].before if english else None,
            minor=bool(english) and all(edit.minor for edit in english),
            user=user,
        )
    for note in Note.objects.filter(pk__in=note_edits):
        refresh_note_statuses(note, changed=note_edits[note.pk], user=user)
    if batch.structure_changed or batch.everything:
        ensure_statuses()
        ensure_note_statuses()
    follow_terms(batch, user)
    follow_questions(batch, user)


def state_for(status, text, english, source_language=SOURCE):
    """`english` is the source's text: a paragraph's English, or a note's text in the language it was written in."""
    if not text:
        return State.MISSING
    if status.language != source_language and status.confirmed_source != english:
        return State.OUTDATED
    return State.REVIEWED if status.reviewed_at else State.TRANSLATED


def refresh_statuses(paragraph, changed=(), english_before=None, minor=False, user=None):
    """Bring the paragraph's statuses up to date after a save that changed the languages in `changed`."""
    english = paragraph.text_in(SOURCE)
    existing = {status.language: status for status in paragraph.statuses.all()}
    now = timezone.now()
    for code in languages.CODES:
        status = existing.get(code) or Status(paragraph=paragraph, language=code, confirmed_source=english)
        text = paragraph.text_in(code)
        if code in changed:
            # A new translation: whoever reviewed the old one, and why it had its status, no longer speak for it.
            status.reviewed_by, status.reviewed_at, status.remark = None, None, ""
            if text:
                status.confirmed_source, status.confirmed_by, status.confirmed_at = english, user, now
        elif minor and SOURCE in changed and status.confirmed_source == (english_before or ""):
            # A minor English edit keeps current translations current; outdated ones stay outdated.
            status.confirmed_source = english
        status.state = state_for(status, text, english)
        status.save()


def refresh_note_statuses(note, changed=(), user=None):
    """A note's statuses after a save: its source is its text in the language it was written in."""
    source = note.body_in(note.language)
    existing = {status.language: status for status in Status.of_notes.filter(note=note)}
    now = timezone.now()
    for code in languages.CODES:
        status = existing.get(code) or Status(
            paragraph_id=note.paragraph_id, note=note, language=code, confirmed_source=source
        )
        text = note.body_in(code)
        if code in changed:
            status.reviewed_by, status.reviewed_at, status.remark = None, None, ""
            if text:
                status.confirmed_source, status.confirmed_by, status.confirmed_at = source, user, now
        status.state = state_for(status, text, source, note.language)
        status.save()


def ensure_note_statuses():
    """Statuses for notes that have none yet in some language, taken as confirmed."""
    have = set(Status.of_notes.values_list("note_id", "language"))
    new = []
    for note in Note.objects.all():
        source = note.body_in(note.language)
        for code in languages.CODES:
            if (note.pk, code) not in have:
                status = Status(paragraph_id=note.paragraph_id, note=note, language=code, confirmed_source=source)
                status.state = state_for(status, note.body_in(code), source, note.language)
                new.append(status)
    if new:
        Status.objects.bulk_create(new, ignore_conflicts=True)


def status_of(obj, code):
    """The status of a paragraph's or a note's text in one language, locked for update."""
    if isinstance(obj, Note):
        return Status.of_notes.select_for_update().get(note=obj, language=code)
    return Status.objects.select_for_update().get(paragraph=obj, language=code)


def source_of(obj):
    """(language, text) of what a translation of the paragraph or note follows."""
    if isinstance(obj, Note):
        return obj.language, obj.body_in(obj.language)
    return SOURCE, obj.text_in(SOURCE)


def ensure_statuses(paragraphs=None):
    """Statuses for paragraphs that have none yet (e.g. loaded before this app), taken as confirmed."""
    paragraphs = Paragraph.objects.all() if paragraphs is None else paragraphs
    have = set(Status.objects.filter(paragraph__in=paragraphs).values_list("paragraph_id", "language"))
    new = []
    for paragraph in paragraphs:
        english = paragraph.text_in(SOURCE)
        for code in languages.CODES:
            if (paragraph.pk, code) not in have:
                status = Status(paragraph=paragraph, language=code, confirmed_source=english)
                status.state = state_for(status, paragraph.text_in(code), english)
                new.append(status)
    if new:
        Status.objects.bulk_create(new, ignore_conflicts=True)


@transaction.atomic
def confirm(obj, code, user):
    """The translator checked the translation against the changed source: it is current again."""
    status = status_of(obj, code)
    source_language, source = source_of(obj)
    status.confirmed_source = source
    status.confirmed_by, status.confirmed_at = user, timezone.now()
    status.remark = ""  # the translator's confirmation replaces whatever decided its status before
    status.state = state_for(status, languages.translated(obj, writing_field(obj), code), source, source_language)
    status.save()
    content_changed()  # the reader's page loses its lag mark
    return status


@transaction.atomic
def mark_reviewed(obj, code, user):
    status = status_of(obj, code)
    source_language, source = source_of(obj)
    status.reviewed_by, status.reviewed_at = user, timezone.now()
    status.state = state_for(status, languages.translated(obj, writing_field(obj), code), source, source_language)
    status.save()
    content_changed()
    return status


def writing_field(obj):
    return "body" if isinstance(obj, Note) else "text"


# Terms: each name in each language has a status too, following the English name as a translation follows the
# English text.


def follow_terms(batch, user=None):
    """Statuses of the terms whose names a batch edited, and first statuses of new terms."""
    edited = {}
    for edit in batch.edits:
        if isinstance(edit.obj, Term) and edit.field == "name":
            edited.setdefault(edit.obj.pk, []).append(edit)
    for term in Term.objects.filter(pk__in=edited).prefetch_related("statuses"):
        english = term.name_in(SOURCE)
        existing = {status.language: status for status in term.statuses.all()}
        changed = {edit.language for edit in edited[term.pk]}
        for code in languages.CODES:
            status = existing.get(code) or Status(term=term, language=code, confirmed_source=english)
            name = term.name_in(code)
            if code in changed:
                status.reviewed_by, status.reviewed_at = None, None
                if name:
                    status.confirmed_source, status.confirmed_by, status.confirmed_at = english, user, timezone.now()
            status.state = state_for(status, name, english)
            status.save()
    if batch.terms_changed or batch.everything:
        ensure_term_statuses()


@transaction.atomic
def confirm_term(term, code, user):
    """The term's name in `code` is still right for the changed English name: it is current again."""
    from .permissions import require_translate

    require_translate(user, code)
    status = Status.objects.select_for_update().get(term=term, language=code)
    status.confirmed_source = term.name_in(SOURCE)
    status.confirmed_by, status.confirmed_at = user, timezone.now()
    status.state = state_for(status, term.name_in(code), status.confirmed_source)
    status.save()
    content_changed()
    return status


@transaction.atomic
def review_term(term, code, user):
    """Someone other than its translator (or an editor) checked the term's name in `code`."""
    from django.core.exceptions import PermissionDenied

    from .permissions import can_edit_structure, require_translate

    require_translate(user, code)
    status = Status.objects.select_for_update().get(term=term, language=code)
    if status.state != State.TRANSLATED:
        raise PermissionDenied(
            _("%(key)s [%(language)s]: only a current name can be marked reviewed.")
            % {"key": term.key, "language": code}
        )
    if status.confirmed_by_id == user.pk and not can_edit_structure(user):
        raise PermissionDenied(
            _("%(key)s [%(language)s]: someone other than its translator reviews a name.")
            % {"key": term.key, "language": code}
        )
    status.reviewed_by, status.reviewed_at = user, timezone.now()
    status.state = state_for(status, term.name_in(code), term.name_in(SOURCE))
    status.save()
    content_changed()
    return status


def ensure_term_statuses():
    have = set(Status.objects.of_terms().values_list("term_id", "language"))
    new = []
    for term in Term.objects.all():
        english = term.name_in(SOURCE)
        for code in languages.CODES:
            if (term.pk, code) not in have:
                status = Status(term=term, language=code, confirmed_source=english)
                status.state = state_for(status, term.name_in(code), english)
                new.append(status)
    if new:
        Status.objects.bulk_create(new, ignore_conflicts=True)


# Finder questions: a question's wording (its text and its answers) in each language has a status too, following the
# English wording.


def wording(question, code):
    """The question and its answers in one language, as its status compares them; '' unless both are there."""
    text, answers = question.text_in(code), languages.translated(question, "answers", code)
    return f"{text}\n{answers}" if text and answers else ""


def follow_questions(batch, user=None):
    """Statuses of the questions whose wording a batch edited, and first statuses of new questions."""
    edited = {}
    for edit in batch.edits:
        if isinstance(edit.obj, Question):
            edited.setdefault(edit.obj.pk, set()).add(edit.language)
    for question in Question.objects.filter(pk__in=edited).prefetch_related("statuses"):
        english = wording(question, SOURCE)
        existing = {status.language: status for status in question.statuses.all()}
        for code in languages.CODES:
            status = existing.get(code) or Status(question=question, language=code, confirmed_source=english)
            text = wording(question, code)
            if code in edited[question.pk]:
                status.reviewed_by, status.reviewed_at = None, None
                if text:
                    status.confirmed_source, status.confirmed_by, status.confirmed_at = english, user, timezone.now()
            status.state = state_for(status, text, english)
            status.save()
    if batch.finder_changed or batch.everything:
        ensure_question_statuses()


def ensure_question_statuses():
    have = set(Status.objects.of_questions().values_list("question_id", "language"))
    new = []
    for question in Question.objects.all():
        english = wording(question, SOURCE)
        for code in languages.CODES:
            if (question.pk, code) not in have:
                status = Status(question=question, language=code, confirmed_source=english)
                status.state = state_for(status, wording(question, code), english)
                new.append(status)
    if new:
        Status.objects.bulk_create(new, ignore_conflicts=True)


# Statuses in content/: what each translation follows, and whether it was reviewed. A paragraph's translations follow
# its English; a note's follow its original (its text in the language it was written in), and a release holds a note
# at its place among its paragraph's notes, as releases pair notes.


def newest_holding(held, source):
    """The date of the newest release in `held` ([(date, text)], newest first) that holds `source`, or UNKNOWN."""
    for date, text in held:
        if source and text == source:
            return date
    return UNKNOWN


def followed_release(status, english_in_releases):
    """The date of the newest release whose English this outdated translation follows, or UNKNOWN."""
    paragraph = status.paragraph
    held = english_in_releases.get((paragraph.section.number, paragraph.key), [])
    return newest_holding(held, status.confirmed_source)


def originals_in_releases(notes_in_releases, number, key, place, language):
    """[(date, original)], newest first: the note's text in `language` in each release, at the note's place."""
    return [(date, bodies.get(language, "")) for date, bodies in notes_in_releases.get((number, key, place), [])]


def statuses_into_documents(section_docs):
    """Fill each paragraph's and note's document's `follows` and `reviewed` from the database, for `exportcontent`."""
    from ipgsite.releases.snapshots import texts_in_releases

    in_releases, notes_in_releases = texts_in_releases()
    statuses = {}
    for status in Status.objects.of_paragraphs().exclude(language=SOURCE).select_related("paragraph__section"):
        statuses[status.paragraph.section.number, status.paragraph.key, status.language] = status
    for doc in section_docs:
        for pdoc in doc.paragraphs:
            for code in pdoc.texts:
                status = statuses.get((doc.number, pdoc.key, code))
                if status is None or code == SOURCE:
                    continue
                if status.state == State.OUTDATED:
                    pdoc.follows[code] = followed_release(status, in_releases)
                elif status.state == State.REVIEWED:
                    pdoc.reviewed.append(code)
                if status.remark:
                    pdoc.remarks[code] = status.remark
    notes = _notes_by_place()
    note_statuses = {(status.note_id, status.language): status for status in Status.of_notes.all()}
    for doc in section_docs:
        for ndoc in doc.notes:
            note = notes[doc.number, ndoc.paragraph, ndoc.place]
            held = originals_in_releases(notes_in_releases, doc.number, ndoc.paragraph, ndoc.place, ndoc.language)
            for code in ndoc.bodies:
                status = note_statuses.get((note.pk, code))
                if status is None or code == ndoc.language:
                    continue
                if status.state == State.OUTDATED:
                    ndoc.follows[code] = newest_holding(held, status.confirmed_source)
                elif status.state == State.REVIEWED:
                    ndoc.reviewed.append(code)
                if status.remark:
                    ndoc.remarks[code] = status.remark


def _notes_by_place():
    """{(number, key, place): note}: every note, named as content/ and releases name it."""
    notes = Note.objects.select_related("paragraph__section")
    return {(n.paragraph.section.number, n.paragraph.key, place): n for n, place in _note_places(notes).items()}


def followed_in_files(section_docs, texts_in_releases, content_dir=None):
    """Each translation of a paragraph or note in the documents, with the source its `follows` says it follows:
    (section doc, paragraph or note doc, code, source), the source None for the current one, "" for an older one
    that no release holds, else the text the release held. `texts_in_releases` is (English, notes) as
    `releases.snapshots.texts_in_releases` gives them.

    Raises ContentError, naming the file and the paragraph or note, for a `follows` date that is no release holding
    what the translation follows.
    """
    for doc in section_docs:
        path = f"{content_dir or 'content'}/sections/{doc.number}.toml"
        for entry, name, texts, source_language, held, what in _translated(doc, *texts_in_releases):
            for code in texts:
                if code == source_language:
                    continue
                follows = entry.follows.get(code)
                if follows is None:
                    source = None
                elif follows == UNKNOWN:
                    source = ""
                else:
                    source = dict(held).get(follows)
                    if not source:
                        problem = f"{name}: follows.{code} names {follows}, no release of which holds {what}"
                        raise ContentError(path, problem, entry.line)
                yield doc, entry, code, source


def _translated(doc, in_releases, notes_in_releases):
    """(paragraph or note doc, its name, its texts, its source language, [(date, source)] as releases held it, what
    that source is) of each paragraph and note of a section document."""
    for pdoc in doc.paragraphs:
        held = in_releases.get((doc.number, pdoc.key), [])
        yield pdoc, f"paragraph {pdoc.key!r}", pdoc.texts, SOURCE, held, "its English"
    for ndoc in doc.notes:
        held = originals_in_releases(notes_in_releases, doc.number, ndoc.paragraph, ndoc.place, ndoc.language)
        yield ndoc, ndoc.name, ndoc.bodies, ndoc.language, held, f"its original ({ndoc.language}) in this place"


def check_statuses(section_docs, releases, content_dir=None):
    """Raise ContentError for a `follows` date that no release file holds (`releases` as read_releases reads them)."""
    from ipgsite.releases.snapshots import texts_in_release_files

    for _translation in followed_in_files(section_docs, texts_in_release_files(releases), content_dir):
        pass


def load_statuses(section_docs, sources_changed=(), content_dir=None):
    """Make each translation's status what content/ says, after a load: a paragraph's and a note's. A translation
    whose source this load changed (the paragraphs and notes in `sources_changed`) keeps the status the change gave
    it (outdated, following the source before).

    Raises ContentError for a `follows` date that is no release holding the paragraph's English (or the note's
    original).
    """
    from ipgsite.releases.snapshots import texts_in_releases

    paragraphs = {(p.section.number, p.key): p for p in Paragraph.objects.select_related("section")}
    notes = _notes_by_place()
    statuses = {(s.paragraph_id, s.language): s for s in Status.objects.of_paragraphs()}
    note_statuses = {(s.note_id, s.language): s for s in Status.of_notes.all()}
    now = timezone.now()
    for doc, entry, code, followed in followed_in_files(section_docs, texts_in_releases(), content_dir):
        if isinstance(entry, ParagraphDoc):
            obj = paragraphs[doc.number, entry.key]
            source_language, source, text = SOURCE, obj.text_in(SOURCE), obj.text_in(code)
            status = statuses.get((obj.pk, code)) or Status(paragraph=obj, language=code)
        else:
            obj = notes[doc.number, entry.paragraph, entry.place]
            source_language, source, text = obj.language, obj.body_in(obj.language), obj.body_in(code)
            status = note_statuses.get((obj.pk, code)) or Status(paragraph=obj.paragraph, note=obj, language=code)
        remark = entry.remarks.get(code, "")
        if obj in sources_changed:
            if status.pk and status.remark != remark:
                status.remark = remark
                status.save(update_fields=["remark"])
            continue
        reviewed = code in entry.reviewed
        before = (status.pk, status.confirmed_source, status.reviewed_at is not None, status.state, status.remark)
        status.remark = remark
        status.confirmed_source = source if followed is None else followed
        if reviewed and status.reviewed_at is None:
            status.reviewed_at = now
        elif not reviewed:
            status.reviewed_by, status.reviewed_at = None, None
        status.state = state_for(status, text, source, source_language)
        if before != (status.pk, status.confirmed_source, status.reviewed_at is not None, status.state, status.remark):
            status.save()


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
    places = {n.pk: place for n, place in _note_places(notes).items()} if any(s.note_id for s in outdated) else {}
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


def _note_places(notes):
    """{note: its place (1, 2, …) among its paragraph's notes}, as releases pair notes."""
    places, counts = {}, {}
    for note in notes.order_by("order", "pk"):
        counts[note.paragraph_id] = counts.get(note.paragraph_id, 0) + 1
        places[note] = counts[note.paragraph_id]
    return places
