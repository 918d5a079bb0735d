"""Saving one language's text of a paragraph or note, as a translator or editor: rights, lost updates, history."""

from dataclasses import dataclass, field

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from .history import changed_since, column, editing, text_of
from .permissions import can_edit_structure, require_translate
from .status import SOURCE

MAX_LENGTH = 20_000


@dataclass
class Conflict(Exception):
    """Someone saved this text after the editor opened it: both versions, nothing overwritten."""

    obj: object
    code: str
    yours: str
    theirs: str
    revision: int
    changes: list = field(default_factory=list)

    @property
    def by(self):
        return ", ".join(sorted({str(change.who) for change in self.changes}))

    @property
    def at(self):
        return self.changes[-1].at if self.changes else None


def clean_text(text):
    """What a textarea sends, as stored: LF line ends, no surrounding blank space."""
    text = (text or "").replace("\r\n", "\n").replace("\r", "\n").strip()
    if "\x00" in text:
        raise ValidationError(_("The text contains a NUL character; remove it and save again."))
    if len(text) > MAX_LENGTH:
        raise ValidationError(
            _("The text is %(length)d characters long; a paragraph or note can have at most %(max)d.")
            % {"length": len(text), "max": MAX_LENGTH}
        )
    return text


def check_minor(user, code, minor):
    if minor and code == SOURCE and not can_edit_structure(user):
        raise PermissionDenied(_("Only editors can mark an English edit as minor."))
    return minor and code == SOURCE


def save_text(obj, code, text, base_revision, user, minor=False):
    """Save `text` as the `code` text of a paragraph or note opened at `base_revision`.

    Returns True if it saved, False if there was nothing to save (the text is already so, or the
    editor left it as it was while someone else changed it). Raises PermissionDenied, ValidationError
    or Conflict; a conflict leaves the stored text as it is.
    """
    require_translate(user, code)
    minor = check_minor(user, code, minor)
    text = clean_text(text)
    if base_revision is None:
        raise ValidationError(_("The form does not say which version you started from; reload the page and try again."))
    with transaction.atomic():
        obj = type(obj).objects.select_for_update().get(pk=obj.pk)
        theirs = text_of(obj, code)
        if text == theirs:
            return False
        if base_revision < obj.revision:
            since = list(changed_since(obj, code, base_revision))
            if since:
                if text == since[0].before:
                    return False  # left untouched while someone else changed it: theirs stands
                raise Conflict(obj=obj, code=code, yours=text, theirs=theirs, revision=obj.revision, changes=since)
        setattr(obj, column(obj, code), text or None)
        with editing(user=user, minor=minor):
            obj.save()
    return True


def parse_revision(value):
    """A revision as posted by a form, or None if it is not one."""
    try:
        revision = int(value)
    except (TypeError, ValueError):
        return None
    return revision if 0 <= revision < 2**31 else None

