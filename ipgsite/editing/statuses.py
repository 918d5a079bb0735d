"""Each translation's status per language, kept current as a step after every batch of writes.

A paragraph's translations follow its English; a note's follow its text in the language it was written in; another
registered row's (a term's names, a finder question's wording) follow its English, as `registry` says. A translation
is outdated while its source differs from `confirmed_source`, the source it was last confirmed against (by saving
the translation, confirming it, or a minor English edit).
"""

from django.core.exceptions import PermissionDenied
from django.utils import timezone
from django.utils.translation import gettext as _

from ipgsite.ipg import languages
from ipgsite.ipg.models import Note, Paragraph

from . import registry, writing
from .models import Change, State, Status
from .permissions import can_edit_structure, require_translate

SOURCE = languages.SOURCE


def follow(batch):
    """Statuses follow a batch of writes (an after-write step): the edited texts', new rows' first ones, and then
    those the writer declared (content/ says them)."""
    user = batch.by if getattr(batch.by, "is_authenticated", False) else None
    edits, note_edits = {}, {}
    for edit in batch.edits:
        if isinstance(edit.obj, Paragraph):
            edits.setdefault(edit.obj.pk, []).append(edit)
        elif isinstance(edit.obj, Note):
            note_edits.setdefault(edit.obj.pk, set()).add(edit.language)
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
    for written in registry.with_statuses():
        if written.model not in (Paragraph, Note):
            follow_rows(written, batch, user)
    apply_declared(batch)


def state_for(status, text, source, source_language=SOURCE):
    """`source` is the text a translation follows: a paragraph's English, a note's text in its own language."""
    if not text:
        return State.MISSING
    if status.language != source_language and status.confirmed_source != source:
        return State.OUTDATED
    return State.REVIEWED if status.reviewed_at else State.TRANSLATED


def _renew(status, text, source, user, now):
    """A new translation: whoever reviewed the old one, and why it had its status, no longer speak for it."""
    status.reviewed_by, status.reviewed_at, status.remark = None, None, ""
    if text:
        status.confirmed_source, status.confirmed_by, status.confirmed_at = source, user, now


def refresh_statuses(paragraph, changed=(), english_before=None, minor=False, user=None):
    """Bring the paragraph's statuses up to date after a save that changed the languages in `changed`."""
    english = paragraph.text_in(SOURCE)
    existing = {status.language: status for status in paragraph.statuses.all()}
    now = timezone.now()
    for code in languages.CODES:
        status = existing.get(code) or Status(paragraph=paragraph, language=code, confirmed_source=english)
        text = paragraph.text_in(code)
        if code in changed:
            _renew(status, text, english, user, now)
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
        status = existing.get(code) or new_status(note, code, confirmed_source=source)
        text = note.body_in(code)
        if code in changed:
            _renew(status, text, source, user, now)
        status.state = state_for(status, text, source, note.language)
        status.save()


def new_status(obj, code, **values):
    """An unsaved status of a paragraph's, a note's or another registered row's translation into `code`."""
    if isinstance(obj, Paragraph):
        return Status(paragraph=obj, language=code, **values)
    if isinstance(obj, Note):
        return Status(paragraph_id=obj.paragraph_id, note=obj, language=code, **values)
    return Status(target=obj, language=code, **values)


def _ensure(objects, have, text_of, source_of_obj):
    """Statuses, taken as confirmed, for the objects that have none yet in some language."""
    new = []
    for obj in objects:
        language, source = source_of_obj(obj)
        for code in languages.CODES:
            if (obj.pk, code) not in have:
                status = new_status(obj, code, confirmed_source=source)
                status.state = state_for(status, text_of(obj, code), source, language)
                new.append(status)
    if new:
        Status.everything.bulk_create(new, ignore_conflicts=True)


def ensure_statuses(paragraphs=None):
    """Statuses for paragraphs that have none yet (e.g. loaded before this app), taken as confirmed."""
    paragraphs = Paragraph.objects.all() if paragraphs is None else paragraphs
    have = set(Status.objects.filter(paragraph__in=paragraphs).values_list("paragraph_id", "language"))
    _ensure(paragraphs, have, lambda p, code: p.text_in(code), source_of)


def ensure_note_statuses():
    have = set(Status.of_notes.values_list("note_id", "language"))
    _ensure(Note.objects.all(), have, lambda n, code: n.body_in(code), source_of)


def source_of(obj):
    """(language, text) of what a translation of the paragraph, note or registered row follows."""
    if isinstance(obj, Note):
        return obj.language, obj.body_in(obj.language)
    if isinstance(obj, Paragraph):
        return SOURCE, obj.text_in(SOURCE)
    return SOURCE, registry.written(obj).status_text(obj, SOURCE)


def text_of(obj, code):
    """The translation a status judges: a paragraph's text, a note's body, a registered row's compared texts."""
    if isinstance(obj, (Paragraph, Note)):
        return writing.text_in(obj, code)
    return registry.written(obj).status_text(obj, code)


def status_of(obj, code):
    """The status of a paragraph's, a note's or a registered row's translation into `code`, locked for update."""
    if isinstance(obj, Note):
        return Status.of_notes.select_for_update(no_key=True).get(note=obj, language=code)
    if isinstance(obj, Paragraph):
        return Status.objects.select_for_update(no_key=True).get(paragraph=obj, language=code)
    return Status.objects.of(obj).select_for_update(no_key=True).get(language=code)


# Rows of other registered models: each language's status follows the English of the texts it compares.


def follow_rows(written, batch, user=None):
    """Statuses of the rows of `written.model` whose compared texts the batch edited, and new rows' first ones."""
    edited = {}
    for edit in batch.edits:
        if isinstance(edit.obj, written.model) and edit.field in written.compared_fields:
            edited.setdefault(edit.obj.pk, set()).add(edit.language)
    now = timezone.now()
    for obj in written.model.objects.filter(pk__in=edited).prefetch_related("statuses"):
        english = written.status_text(obj, SOURCE)
        existing = {status.language: status for status in obj.statuses.all()}
        for code in languages.CODES:
            status = existing.get(code) or new_status(obj, code, confirmed_source=english)
            text = written.status_text(obj, code)
            if code in edited[obj.pk]:
                _renew(status, text, english, user, now)
            status.state = state_for(status, text, english)
            status.save()
    if batch.everything or written.model in batch.restructured:
        have = set(Status.objects.of_model(written.model).values_list("object_id", "language"))
        _ensure(written.model.objects.all(), have, written.status_text, source_of)


# Statuses a writer declares: content/ says which translations follow an older source, and which were reviewed.


def apply_declared(batch):
    """Make each declared status so, after the edits' own: except where this batch changed the translation's source
    (a paragraph's English, a note's original, a term's English name), whose translations keep the status the change
    gave them (outdated, following the source before), and only take the remark."""
    if not batch.declared_statuses:
        return
    changed_sources = {
        (type(edit.obj), edit.obj.pk)
        for edit in batch.edits
        if edit.action == Change.Action.EDIT and edit.before and edit.language == source_of(edit.obj)[0]
    }
    now = timezone.now()
    for (obj, code), declared in batch.declared_statuses.items():
        existing = _stored_status(obj, code)
        status = existing or new_status(obj, code)
        if (type(obj), obj.pk) in changed_sources:
            if existing and status.remark != declared.remark:
                status.remark = declared.remark
                status.save(update_fields=["remark"])
            continue
        language, source = source_of(obj)
        before = (status.pk, status.confirmed_source, status.reviewed_at is not None, status.state, status.remark)
        status.remark = declared.remark
        status.confirmed_source = source if declared.follows is None else declared.follows
        if declared.reviewed and status.reviewed_at is None:
            status.reviewed_at = now
        elif not declared.reviewed:
            status.reviewed_by, status.reviewed_at = None, None
        status.state = state_for(status, text_of(obj, code), source, language)
        if before != (status.pk, status.confirmed_source, status.reviewed_at is not None, status.state, status.remark):
            status.save()


def _stored_status(obj, code):
    if isinstance(obj, Note):
        return Status.of_notes.filter(note=obj, language=code).first()
    if isinstance(obj, Paragraph):
        return Status.objects.filter(paragraph=obj, language=code).first()
    return Status.objects.of(obj).filter(language=code).first()


# A translator's own say: a translation still right for its changed source, or reviewed by someone else.


def confirm(obj, code, user):
    """The translator checked the translation against its changed source: it is current again."""
    require_translate(user, code)
    with writing.batch(user) as batch:
        status = status_of(obj, code)
        source_language, source = source_of(obj)
        status.confirmed_source = source
        status.confirmed_by, status.confirmed_at = user, timezone.now()
        status.remark = ""  # the translator's confirmation replaces whatever decided its status before
        status.state = state_for(status, text_of(obj, code), source, source_language)
        status.save()
        batch.statuses_changed = True  # the reader's page loses its lag mark
    return status


def mark_reviewed(obj, code, user):
    """Someone other than its translator (or an editor) checked a current translation."""
    require_translate(user, code)
    with writing.batch(user) as batch:
        status = status_of(obj, code)
        if status.state != State.TRANSLATED:
            raise PermissionDenied(_("Only a current translation can be marked reviewed."))
        if status.confirmed_by_id == user.pk and not can_edit_structure(user):
            raise PermissionDenied(_("Someone other than its translator reviews a translation."))
        source_language, source = source_of(obj)
        status.reviewed_by, status.reviewed_at = user, timezone.now()
        status.state = state_for(status, text_of(obj, code), source, source_language)
        status.save()
        batch.statuses_changed = True
    return status
