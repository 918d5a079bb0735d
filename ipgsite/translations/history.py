"""Every change to a paragraph's text or a note, recorded with who, when, before and after.

Saves anywhere (admin, translate page, import, `loadcontent`) go through the models' `save()`, and
the receivers in `receivers.py` record them. Who made the change, and whether an English edit is
minor, come from the `editing()` context around the save.
"""

import contextvars
from contextlib import contextmanager
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from ipgsite.ipg import languages
from ipgsite.ipg.models import Note, Paragraph

from .models import Change
from .permissions import require_translate

TRACKED = {Paragraph: "text", Note: "body"}


@dataclass(frozen=True)
class Editing:
    user: object = None
    minor: bool = False
    reverting: object = None


_editing = contextvars.ContextVar("editing", default=None)


@contextmanager
def editing(user=None, minor=False, reverting=None):
    """Saves inside are recorded as made by `user`; `minor` marks an English edit that doesn't outdate translations."""
    if user is not None and not user.is_authenticated:
        user = None
    token = _editing.set(Editing(user=user, minor=minor, reverting=reverting))
    try:
        yield
    finally:
        _editing.reset(token)


def current_editing():
    return _editing.get() or Editing()


def column(obj_or_model, code):
    model = obj_or_model if isinstance(obj_or_model, type) else type(obj_or_model)
    return f"{TRACKED[model]}_{languages.field_suffix(code)}"


def text_of(obj, code):
    return getattr(obj, column(obj, code)) or ""


def changed_since(obj, code, revision):
    """The changes to this text made after `revision`, oldest first."""
    return Change.objects.of_text(obj, code).after_revision(revision).order_by("revision", "pk")


def text_at(obj, code, revision):
    """The text as it was at `revision`: what an editor who opened it then was looking at."""
    first = changed_since(obj, code, revision).first()
    return first.before if first else text_of(obj, code)


class RevertError(Exception):
    pass


@transaction.atomic
def revert(change, user):
    """Undo one change, as a new change (so the revert itself can be undone). Checks the user's rights."""
    if change.action == Change.Action.EDIT:
        require_translate(user, change.language)
        if change.field == "body":
            if change.note_id is None:
                raise RevertError(_("This note has been deleted since; restore the note first."))
            obj = Note.objects.select_for_update().get(pk=change.note_id)
        else:
            obj = Paragraph.objects.select_for_update().get(pk=change.paragraph_id)
        setattr(obj, column(obj, change.language), change.before or None)
        with editing(user=user, minor=change.minor, reverting=change):
            obj.save()
        return obj
    data = change.note_data
    require_translate(user, data.get("language", change.language))
    if change.action == Change.Action.ADD:
        note = Note.objects.filter(pk=change.note_id).first()
        if note is None:
            raise RevertError(_("This note has already been deleted."))
        with editing(user=user, reverting=change):
            note.delete()
        return change.paragraph
    note = Note(
        paragraph_id=change.paragraph_id,
        language=data["language"],
        source=data["source"],
        order=data["order"],
    )
    for code, body in data.get("bodies", {}).items():
        if code in languages.CODES:
            setattr(note, column(Note, code), body or None)
    with editing(user=user, reverting=change):
        note.save()
    return note


def note_data(note):
    return {
        "language": note.language,
        "source": note.source,
        "order": note.order,
        "bodies": {code: text_of(note, code) for code in languages.CODES if text_of(note, code)},
    }
