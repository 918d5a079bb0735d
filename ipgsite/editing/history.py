"""Undoing one change from a paragraph's history (or another registered row's: a term's, a finder question's), as
a new change of the user's own (so it can be undone too).

The history itself is written by `writing`, with every change: who, when, before and after.
"""

from django.utils.translation import gettext as _

from ipgsite.ipg import languages
from ipgsite.ipg.models import Note, Paragraph

from . import writing
from .models import Change
from .permissions import can_edit_structure


class RevertError(Exception):
    pass


def revert(change, user):
    """Undo `change` as `user`, who needs the rights the undoing itself takes, judged by what is stored now.

    A revert is the user's own edit: it is minor only when an editor reverts a minor edit.
    """
    if change.action == Change.Action.EDIT and change.content_type_id:
        obj = change.target
        if obj is None:
            raise RevertError(_("What this change was made to has been deleted since."))
        writing.write_text(
            obj,
            change.language,
            change.before,
            by=user,
            base_revision=writing.LATEST,
            minor=change.minor and can_edit_structure(user),
            reverting=change,
            field=change.field,
        )
        return obj
    if change.action == Change.Action.EDIT:
        if change.field == "body":
            note = Note.objects.filter(pk=change.note_id).first() if change.note_id else None
            if note is None:
                raise RevertError(_("This note has been deleted since; restore the note first."))
            obj = note
        else:
            obj = Paragraph.objects.get(pk=change.paragraph_id)
        minor = change.minor and can_edit_structure(user)
        writing.write_text(
            obj, change.language, change.before, by=user, base_revision=writing.LATEST, minor=minor, reverting=change
        )
        return obj
    if change.action == Change.Action.ADD:
        note = Note.objects.filter(pk=change.note_id).first() if change.note_id else None
        if note is None:
            raise RevertError(_("This note has already been deleted."))
        writing.delete_note(note, by=user, reverting=change)
        return change.paragraph
    data = change.note_data
    bodies = {code: body for code, body in data.get("bodies", {}).items() if code in languages.CODES}
    return writing.add_note(
        change.paragraph,
        language=data.get("language", change.language),
        source=data.get("source", ""),
        order=data.get("order", 1),
        bodies=bodies,
        by=user,
        reverting=change,
    )
