"""A translator's texts: saving one (or several together), confirming an outdated one, reviewing someone else's."""

from django.utils.translation import gettext as _

from ipgsite.editing import statuses, writing
from ipgsite.editing.models import State, Status
from ipgsite.editing.permissions import can_edit_structure, can_translate, require_translate
from ipgsite.ipg.models import Note

from .base import Action, NotAllowed, NothingToDo, Refused, refusing


def name_of(obj):
    """A paragraph or note as a message names it: its key, or its paragraph's key and "(note)"."""
    return f"{obj.paragraph.key} ({_('note')})" if isinstance(obj, Note) else obj.key


def stored_status(obj, code):
    """The paragraph's or note's status in `code`, or None."""
    if isinstance(obj, Note):
        return Status.of_notes.filter(note=obj, language=code).first()
    return Status.objects.filter(paragraph=obj, language=code).first()


class LanguageAction(Action):
    """An action on a paragraph's or note's text in one language, which the user must translate."""

    def __init__(self, user, obj, code):
        self.user, self.obj, self.code = user, obj, code

    def check(self):
        if not can_translate(self.user, self.code):
            with refusing():
                require_translate(self.user, self.code)  # the refusal names the language and the group it needs


class SaveTranslation(LanguageAction):
    """Save a text the user opened at `base_revision`. Refused: another language (403), a bad text or revision
    (400), someone else's save since (409, with both versions). `execute()` returns whether the text changed."""

    def __init__(self, user, obj, code, text, base_revision, minor=False):
        super().__init__(user, obj, code)
        self.text, self.base_revision, self.minor = text, base_revision, minor

    def check(self):
        super().check()
        with refusing():  # the lost-update check, without the lock: the write checks again under it
            writing.check_text(self.obj, self.code, self.text, self.user, self.base_revision, self.minor)

    def perform(self):
        return writing.write_text(
            self.obj, self.code, self.text, by=self.user, base_revision=self.base_revision, minor=self.minor
        )


class SaveTexts(Action):
    """Several texts in one language saved together ("Save all"): one batch of writes, so what a save sets off runs
    once; each text is saved or refused on its own (a conflict leaves the others saved), but a right the user lacks
    saves nothing. `execute()` returns {save: True | False | Refused}."""

    def __init__(self, user, code, saves):
        self.user, self.code, self.saves = user, code, list(saves)

    def check(self):
        if not can_translate(self.user, self.code):
            with refusing():
                require_translate(self.user, self.code)

    def perform(self):
        results = {}
        with writing.batch(self.user):
            for save in self.saves:
                try:
                    results[save] = save.execute()
                except NotAllowed:
                    raise
                except Refused as refusal:
                    results[save] = refusal
        return results


class ConfirmTranslation(LanguageAction):
    """ "Translation still correct": an outdated translation checked against its changed source is current again.
    `execute()` returns the status."""

    def __init__(self, user, obj, code, status=None):
        super().__init__(user, obj, code)
        self.status = status

    def check(self):
        super().check()
        status = self.status or stored_status(self.obj, self.code)
        if status is None or status.state != State.OUTDATED:
            raise NothingToDo(_("%(key)s is not outdated: nothing to confirm.") % {"key": name_of(self.obj)})

    def perform(self):
        return statuses.confirm(self.obj, self.code, self.user)

    def done(self):
        return _("%(key)s confirmed against its current source.") % {"key": name_of(self.obj)}


class ReviewTranslation(LanguageAction):
    """ "Mark reviewed": a current translation checked by someone other than its translator, or by an editor.
    `execute()` returns the status."""

    def __init__(self, user, obj, code, status=None):
        super().__init__(user, obj, code)
        self.status = status

    def check(self):
        super().check()
        status = self.status or stored_status(self.obj, self.code)
        if status is None or status.state != State.TRANSLATED or status.is_source:
            raise Refused(_("Only a current translation can be marked reviewed."))
        if status.confirmed_by_id == self.user.pk and not can_edit_structure(self.user):
            raise NotAllowed(_("Someone other than its translator reviews a translation."))

    def perform(self):
        return statuses.mark_reviewed(self.obj, self.code, self.user)

    def done(self):
        return _("%(key)s marked reviewed.") % {"key": name_of(self.obj)}
