"""Undoing one change of the history, as a change of the user's own (so that it can be undone in turn)."""

from django.utils.translation import gettext as _

from ipgsite.editing import history
from ipgsite.editing.models import Change
from ipgsite.editing.permissions import can_translate, require_translate

from .base import Action, Refused, refusing


class Revert(Action):
    """Put a text back as it was before `change` (delete a note that was added, restore one that was deleted).

    Refused: a language the user does not translate (403), judged as the write will judge it (a note by its stored
    language); and an edit that had no text before, the first translation of a text or its first import, since
    reverting it would empty the text. `execute()` returns what was written to (a paragraph, note or other row)."""

    def __init__(self, user, change):
        self.user, self.change = user, change

    @property
    def language(self):
        """The language whose right the revert takes."""
        change = self.change
        if change.action == Change.Action.ADD and change.note is not None:
            return change.note.language  # the note as stored now, as the write will judge it
        if change.action != Change.Action.EDIT:
            return change.note_data.get("language") or change.language
        return change.language

    def check(self):
        if not can_translate(self.user, self.language):
            with refusing():
                require_translate(self.user, self.language)  # the refusal names the language and the group
        if self.change.action == Change.Action.EDIT and not self.change.before:
            first = _("Reverting this change would empty the text: it was the first text in this language.")
            raise Refused(f"{first} {_('Edit it instead.')}")

    def perform(self):
        try:
            return history.revert(self.change, self.user)
        except history.RevertError as error:
            raise Refused(str(error)) from error

    def done(self):
        return _("Reverted: the text is as it was before that change, and the revert is in the history.")
