"""Keeping each paragraph's status per language current, and showing what changed in the English."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ipgsite.caching.versions import content_changed
from ipgsite.finder.models import Question
from ipgsite.ipg import languages
from ipgsite.ipg.models import Note, Paragraph
from ipgsite.terms.models import Term

from .models import State, Status

UNKNOWN = "unknown"  # follows an older English that no release on this site holds

SOURCE = languages.SOURCE


def follow(batch):
    """Statuses follow a batch of writes (an after-write step): the edited paragraphs', and new paragraphs'
    first ones."""
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
