"""What people changed since the content was last what its files say (`Checkpoint`), named where the site records
it: a text's history (`Change`: a paragraph, a note, a term's or a finder question's words, with the language and the
editor), a translation confirmed or reviewed (`Status`), and the admin's log for the rest (a title, a key, a penalty).

Each is `Made(where, what, done)`: `where` the content it belongs to, ("section", number), ("chapters",) or the app
of a registered model, ("terms",) or ("finder",); `what` the paragraph, note or row and language; `done` what was done
and by whom ("edited by alice").
"""

from dataclasses import dataclass

from django.contrib.admin.models import ADDITION, DELETION, LogEntry
from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Max, Q

from ipgsite.ipg.models import Alias, Chapter, FormerKey, Note, Paragraph, Section

from .models import Change, Checkpoint, Status

VERBS = {Change.Action.EDIT: "edited", Change.Action.ADD: "added", Change.Action.DELETE: "deleted"}


@dataclass(frozen=True)
class Made:
    where: tuple
    what: str
    done: str


def checkpoint(action, directory, files):
    """Note that the content is what the files in `directory` hold ({name: text}), after a load or an export."""
    newest = Change.objects.aggregate(newest=Max("pk"))["newest"] or 0
    Checkpoint.objects.all().delete()
    return Checkpoint.objects.create(action=action, directory=str(directory), files=files, last_change=newest)


def differing(files):
    """[(name, what the last checkpoint held or None, what `files` hold or None)] of the files that differ from the
    last checkpoint's, by name; None when there is no checkpoint."""
    last = Checkpoint.objects.last_one()
    if last is None:
        return None
    names = sorted(set(files) | set(last.files))
    return [(name, last.files.get(name), files.get(name)) for name in names if last.files.get(name) != files.get(name)]


def made_since(change_id, at=None):
    """The changes after change `change_id` in the history, oldest first; then, if `at` is given, the translations
    confirmed or reviewed and the admin's changes since `at`."""
    yield from _changes(Change.objects.filter(pk__gt=change_id))
    if at is not None:
        yield from _statuses(at)
        yield from _admin_log(at)


def made_by_people():
    """Every change people made, as the history has it."""
    return _changes(Change.objects.filter(user__isnull=False))


def _who(user):
    return user.get_username() if user else "content files"


def _section(number):
    return ("section", number)


def _changes(changes):
    for change in changes.select_related("paragraph__section", "user", "content_type").order_by("pk"):
        language = f" [{change.language}]" if change.language else ""
        done = f"{VERBS.get(change.action, 'edited')} by {_who(change.user)}"
        if change.paragraph_id:
            paragraph = change.paragraph
            number = paragraph.section.number
            note = (
                "a note on " if change.field == "body" or change.note_id or change.action != Change.Action.EDIT else ""
            )
            yield Made(_section(number), f"section {number}, {note}paragraph {paragraph.key}{language}", done)
        elif change.content_type_id:
            field = f" {change.field}" if change.field not in ("name", "text") else ""
            yield _registered(change.content_type, change.target, f"{field}{language}", done)


def _registered(content_type, obj, detail, done):
    """A term's or a finder question's words (or another registered model's row), named by its key."""
    key = getattr(obj, "key", None) or "(deleted since)"
    return Made((content_type.app_label,), f"{content_type.model} {key}{detail}", done)


def _statuses(at):
    statuses = Status.everything.filter(
        Q(confirmed_at__gt=at, confirmed_by__isnull=False) | Q(reviewed_at__gt=at, reviewed_by__isnull=False)
    ).select_related("paragraph__section", "content_type", "confirmed_by", "reviewed_by")
    for status in statuses:
        done = []
        if status.confirmed_by_id and status.confirmed_at and status.confirmed_at > at:
            done.append(f"confirmed by {_who(status.confirmed_by)}")
        if status.reviewed_by_id and status.reviewed_at and status.reviewed_at > at:
            done.append(f"reviewed by {_who(status.reviewed_by)}")
        language = f" [{status.language}]"
        for action in done:
            if status.paragraph_id:
                number, key = status.paragraph.section.number, status.paragraph.key
                note = "a note on " if status.note_id else ""
                yield Made(_section(number), f"section {number}, {note}paragraph {key}{language}", action)
            else:
                yield _registered(status.content_type, status.target, language, action)


def _admin_log(at):
    entries = LogEntry.objects.filter(action_time__gt=at).select_related("user", "content_type").order_by("pk")
    for entry in entries:
        if not entry.content_type_id:
            continue
        try:
            obj = entry.get_edited_object() if entry.action_flag != DELETION else None
        except ObjectDoesNotExist:  # deleted since
            obj = None
        action = "added" if entry.action_flag == ADDITION else "deleted" if entry.action_flag == DELETION else "changed"
        message = entry.get_change_message().rstrip(".") if entry.action_flag not in (ADDITION, DELETION) else ""
        done = f"{action} in the admin by {_who(entry.user)}" + (f" ({message})" if message else "")
        where = _where(obj) or (entry.content_type.app_label,)
        yield Made(where, f"{entry.content_type.name} {entry.object_repr}", done)


def _where(obj):
    if isinstance(obj, Section):
        return _section(obj.number)
    if isinstance(obj, (Paragraph, Alias)):
        return _section(obj.section.number)
    if isinstance(obj, (Note, FormerKey)):
        return _section(obj.paragraph.section.number)
    if isinstance(obj, Chapter):
        return ("chapters",)
    return None
