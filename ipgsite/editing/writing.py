"""The one way the IPG's content changes: every writer (admin, translate page, import, revert, `loadcontent`) calls
these functions.

Each write checks the writer's rights against what is stored (never against what was posted), cleans the text,
locks the row, refuses a lost update, and records the revision and history. Writes are gathered in a batch (`batch`,
held in a context variable while it lasts), and what they set off (translation status, cross-links, search index,
cache version…) runs once per batch, in the same transaction: the steps `settings.AFTER_WRITE` lists, in order
(`after_write`). A registered model's row saved or deleted outside a batch is refused (`guard`). Nothing else writes
content, and reading a page writes nothing.

One batch of writes at a time: the outermost batch first takes the write lock (`hold_the_write_lock`), before any
row, so that two saves at the same moment wait for each other instead of deadlocking; a writer that waits too long
gets `Busy`, with nothing written.
"""

import contextvars
from contextlib import contextmanager
from dataclasses import dataclass, field

from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import OperationalError, connection, transaction
from django.db.models.signals import pre_delete, pre_save
from django.utils.translation import gettext as _

from ipgsite.ipg import languages
from ipgsite.ipg.models import Alias, Chapter, FormerKey, Note, Paragraph, Section

from . import after_write, registry
from .models import Change, WriteLock
from .permissions import can_edit_structure, require_structure, require_translate

MAX_LENGTH = 20_000
NAMES = (Section, Alias, Chapter)  # a change to one of these may change how any text mentions a section


class ContentFiles:
    """The writer behind `loadcontent`: the files in content/, reviewed in git, may write everything."""

    is_authenticated = False
    pk = None

    def __str__(self):
        return _("content files")


CONTENT_FILES = ContentFiles()


class Latest:
    """A base revision for writers that replace the stored text deliberately (revert, content files)."""

    def __repr__(self):
        return "LATEST"


LATEST = Latest()


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


@dataclass
class Edit:
    """One language's text of a paragraph or note, as one write changed it (or a note added or deleted)."""

    obj: object
    language: str
    before: str
    after: str
    action: str = Change.Action.EDIT
    minor: bool = False
    field: str = ""  # the text's field: "text" (a paragraph's), "body" (a note's), "name" (a term's)…


@dataclass
class Batch:
    """The writes of one request or one load, handed to the after-write steps together when the last one is done."""

    by: object
    edits: list = field(default_factory=list)
    restructured: set = field(default_factory=set)  # models whose rows were added, deleted or changed besides texts
    structure_changed: bool = False  # sections, paragraphs, parts, order, notes, terms… added, deleted or changed
    everything: bool = False  # a load from content files: derive everything again
    touched_paragraph_ids: set = field(default_factory=set)  # paragraphs whose key, part or order changed
    moved_note_ids: set = field(default_factory=set)  # notes moved to another paragraph
    moved: dict = field(default_factory=dict)  # {"2.3#old-key": "2.3#new-key"}: addresses a rename or renumbering moved
    statuses_changed: bool = False  # a translation confirmed or reviewed: pages show its status
    releases_changed: bool = False  # a release published, loaded or replaced: pages name the newest release
    # {(object, language): Declared}: statuses the writer states (content/ says them), not derived from the edits
    declared_statuses: dict = field(default_factory=dict)

    def ids_of(self, model):
        """The ids of the rows of `model` whose texts this batch edited."""
        return {e.obj.pk for e in self.edits if isinstance(e.obj, model)}

    @property
    def paragraph_ids(self):
        return self.ids_of(Paragraph)

    @property
    def note_ids(self):
        return self.ids_of(Note)

    @property
    def names_changed(self):
        """A title, number or alias changed: any text may mention a section differently now."""
        return bool(self.restructured.intersection(NAMES))

    def changed(self, model):
        """Whether rows of `model` were added, deleted or restructured, or had a text edited (or everything was)."""
        return self.everything or model in self.restructured or bool(self.ids_of(model))

    def move(self, old, new):
        """A paragraph's address is now `new`: what other content cites as `old` (or as an address that was moved to
        `old` earlier in the batch) is to cite `new`."""
        chained = [before for before, after in self.moved.items() if after == old]
        for before in chained:
            self.moved[before] = new
        if not chained:
            self.moved.setdefault(old, new)
        self.moved = {before: after for before, after in self.moved.items() if before != after}

    def declare_status(self, obj, code, declared):
        self.declared_statuses[obj, code] = declared

    def __bool__(self):
        return bool(
            self.edits
            or self.restructured
            or self.structure_changed
            or self.everything
            or self.statuses_changed
            or self.releases_changed
            or self.declared_statuses
        )


@dataclass(frozen=True)
class Declared:
    """A translation's status as a writer states it: the source it follows (None: the current one; "": an older one
    that no release holds), whether someone other than its translator reviewed it, and why (a remark)."""

    follows: str | None = None
    reviewed: bool = False
    remark: str = ""


_batch = contextvars.ContextVar("batch", default=None)

# How long a writer waits for the write lock (PostgreSQL's lock_timeout, set in settings.DATABASES; SQLite's
# timeout): less than gunicorn's 30 s, so that a writer kept waiting gets a page saying so rather than no answer.
WAIT_FOR_WRITES = 20  # seconds


class Busy(Exception):
    """Another batch of writes (an import, a load) held the write lock for longer than a writer waits: nothing of
    this one was written; saving again in a moment works."""


def hold_the_write_lock():
    """Wait for the other batches of writes, then hold the write lock until this transaction ends.

    PostgreSQL: the lock on the one `WriteLock` row, taken before any other row, so that every batch takes its locks
    in the same order (this one first) and no two can deadlock. SQLite: the database's own write lock, which BEGIN
    IMMEDIATE took as the transaction began (`settings.DATABASES`), so there is nothing more to take.
    """
    if not connection.features.has_select_for_update:
        return
    if not list(WriteLock.objects.select_for_update().filter(pk=WriteLock.ONE)):
        WriteLock.objects.bulk_create([WriteLock(pk=WriteLock.ONE)], ignore_conflicts=True)  # after a flush
        list(WriteLock.objects.select_for_update().filter(pk=WriteLock.ONE))


def _is_busy(error):
    """A lock waited for longer than the database lets a writer wait: PostgreSQL's lock_timeout (lock_not_available),
    SQLite's timeout ("database is locked")."""
    return getattr(error.__cause__, "sqlstate", None) == "55P03" or "database is locked" in str(error)


@contextmanager
def batch(by, everything=False):
    """Writes inside are derived from together, once, at the end (still inside the transaction)."""
    outer = _batch.get()
    if outer is not None:
        outer.everything |= everything
        with transaction.atomic():  # a savepoint: a write that fails leaves the batch's other writes
            yield outer
        return
    current = Batch(by=_writer(by), everything=everything)
    token = _batch.set(current)
    try:
        with transaction.atomic():
            hold_the_write_lock()
            yield current
            if current:
                after_write.apply(current)
    except OperationalError as error:
        if _is_busy(error):
            raise Busy() from error
        raise
    finally:
        _batch.reset(token)


class OutsideTheWritePath(RuntimeError):
    """A paragraph or note saved or deleted by other means than this module: its history, rights and derived data
    would be skipped."""


def refuse_writes_outside_a_batch(sender, instance, raw=False, **kwargs):
    """A registered model's row saved or deleted outside a batch of writes (pre_save, pre_delete) is refused."""
    if not raw and _batch.get() is None:
        raise OutsideTheWritePath(f"{instance!r} changes only through ipgsite.editing.writing.")


def guard(models):
    """Let these models' rows be saved and deleted only inside a batch of writes (at start-up: the registry's)."""
    for model in models:
        uid = f"ipgsite.editing.only-through-writing.{model._meta.label}"
        pre_save.connect(refuse_writes_outside_a_batch, sender=model, dispatch_uid=uid + ".save")
        pre_delete.connect(refuse_writes_outside_a_batch, sender=model, dispatch_uid=uid + ".delete")


def _writer(by):
    if by is CONTENT_FILES or (by is not None and by.is_authenticated):
        return by
    raise PermissionDenied(_("Only signed-in translators and editors change the IPG's text."))


def _require_language(by, code):
    if by is not CONTENT_FILES:
        require_translate(by, code)


def _require_structure(by):
    if by is not CONTENT_FILES:
        require_structure(by)


def _user(by):
    return None if by is CONTENT_FILES else by


def clean_text(text):
    """What a textarea sends, as stored: LF line ends, no surrounding blank space, no NUL, not too long."""
    text = (text or "").replace("\r\n", "\n").replace("\r", "\n").strip()
    if "\x00" in text:
        raise ValidationError(_("The text contains a NUL character; remove it and save again."))
    if len(text) > MAX_LENGTH:
        raise ValidationError(
            _("The text is %(length)d characters long; a paragraph or note can have at most %(max)d.")
            % {"length": len(text), "max": MAX_LENGTH}
        )
    return text


def check_minor(by, code, minor):
    """Whether an edit is minor: only an editor's English edit can be."""
    if minor and code == languages.SOURCE and by is not CONTENT_FILES and not can_edit_structure(by):
        raise PermissionDenied(_("Only editors can mark an English edit as minor."))
    return bool(minor) and code == languages.SOURCE


def parse_revision(value):
    """A revision as posted by a form, or None if it is not one."""
    try:
        revision = int(value)
    except (TypeError, ValueError):
        return None
    return revision if 0 <= revision < 2**31 else None


# History


def text_in(obj, code, field=None):
    """A paragraph's text, a note's body or a term's name (or `field`) in one language, '' where it is missing."""
    return languages.translated(obj, field or registry.written(obj).default_field, code)


def text_column(obj_or_model, code, field=None):
    return languages.column(field or registry.written(obj_or_model).default_field, code)


def changed_since(obj, code, revision, field=None):
    """The changes to this text made after `revision`, oldest first."""
    field = field or registry.written(obj).default_field
    return Change.objects.of_text(obj, code, field).after_revision(revision).order_by("revision", "pk")


def text_at(obj, code, revision, field=None):
    """The text as it was at `revision`: what an editor who opened it then was looking at."""
    first = changed_since(obj, code, revision, field).first()
    return first.before if first else text_in(obj, code, field)


def note_data(note):
    return {
        "language": note.language,
        "source": note.source,
        "order": note.order,
        "bodies": languages.translations(note, "body"),
    }


def _record(obj, edit, by, reverting):
    paragraph_id = obj.paragraph_id if isinstance(obj, Note) else obj.pk if isinstance(obj, Paragraph) else None
    other = paragraph_id is None
    Change.objects.create(
        paragraph_id=paragraph_id,
        note=obj if isinstance(obj, Note) and edit.action != Change.Action.DELETE else None,
        content_type=ContentType.objects.get_for_model(obj) if other else None,
        object_id=obj.pk if other else None,
        action=edit.action,
        field=edit.field or registry.written(obj).default_field,
        language=edit.language,
        before=edit.before,
        after=edit.after,
        note_data=note_data(obj) if edit.action != Change.Action.EDIT else {},
        revision=obj.revision,
        user=_user(by),
        minor=edit.minor,
        reverts=reverting,
    )


# Writing text


def check_text(obj, code, text, by, base_revision, minor=False, field=None):
    """The text as it would be stored, or None if there is nothing to save; raises what `write_text` would.

    Without a lock: forms call it to show errors and conflicts; `write_text` calls it again under the lock.
    A term's `field` is its name (the default), its variants or its inflections.
    """
    _require_language(_writer(by), code)
    check_minor(by, code, minor)
    field = _field(obj, field)
    written = registry.written(obj)
    text = written.clean(obj, field, text) if written.clean else clean_text(text)
    if base_revision is None:
        raise ValidationError(_("The form does not say which version you started from; reload the page and try again."))
    theirs = text_in(obj, code, field)
    if text == theirs:
        return None
    if base_revision is not LATEST and base_revision > obj.revision:
        # A version the text never had skips the check below: a forged form or file, or a row made anew since.
        raise ValidationError(
            _("The form names a version of this text that it never had; reload the page and try again.")
        )
    if base_revision is not LATEST and base_revision < obj.revision:
        since = list(changed_since(obj, code, base_revision, field))
        if since:
            if text == since[0].before:
                return None  # left untouched while someone else changed it: theirs stands
            raise Conflict(obj=obj, code=code, yours=text, theirs=theirs, revision=obj.revision, changes=since)
    return text


def write_text(obj, code, text, *, by, base_revision, minor=False, reverting=None, field=None):
    """Save `text` as the `code` text of a paragraph or note (or the `code` name of a term, or its `field`) that
    the writer opened at `base_revision`.

    Returns True if it saved, False if there was nothing to save. Raises PermissionDenied, ValidationError or
    Conflict; a conflict leaves the stored text as it is.
    """
    field = _field(obj, field)
    with batch(by) as current:
        obj = type(obj).objects.select_for_update(no_key=True).get(pk=obj.pk)
        text = check_text(obj, code, text, by, base_revision, minor, field=field)
        if text is None:
            return False
        written = registry.written(obj)
        if written.check:
            written.check(obj, field, code, text)
        edit = Edit(
            obj=obj,
            language=code,
            before=text_in(obj, code, field),
            after=text,
            minor=check_minor(by, code, minor),
            field=field,
        )
        column = text_column(obj, code, field)
        setattr(obj, column, text or None)
        obj.revision += 1
        obj.save(update_fields=[column, "revision"])
        _record(obj, edit, current.by, reverting)
        current.edits.append(edit)
    return True


def _field(obj, field):
    """The field a write names, or the model's default; ValueError for one the model does not write."""
    written = registry.written(obj)
    field = field or written.default_field
    if field not in written.fields:
        raise ValueError(f"The write path writes no field {field!r} of {type(obj).__name__}.")
    return field


# Notes


def _clean_bodies(bodies):
    return {code: clean_text(body) for code, body in bodies.items() if code in languages.CODES and clean_text(body)}


def add_note(paragraph, *, language, source, order, bodies, by, reverting=None):
    """A new note on `paragraph`, written in `language`; a translator adds notes only in their languages."""
    if language not in languages.CODES:
        raise ValidationError(_("A note's language is one of %(codes)s.") % {"codes": ", ".join(languages.CODES)})
    bodies = _clean_bodies(bodies)
    with batch(by) as current:
        for code in {language, *bodies}:
            _require_language(current.by, code)
        note = Note(paragraph=paragraph, language=language, source=source, order=order, revision=1)
        for code, body in bodies.items():
            setattr(note, text_column(Note, code), body)
        _validate(note)
        note.save()
        edit = Edit(obj=note, language=language, before="", after=bodies.get(language, ""), action=Change.Action.ADD)
        _record(note, edit, current.by, reverting)
        current.edits.append(edit)
        current.structure_changed = True
    return note


def delete_note(note, *, by, reverting=None):
    """Delete a note: a translator deletes only notes whose stored language is theirs."""
    with batch(by) as current:
        note = Note.objects.select_for_update().get(pk=note.pk)
        _require_language(current.by, note.language)
        edit = Edit(
            obj=note, language=note.language, before=text_in(note, note.language), after="", action=Change.Action.DELETE
        )
        _record(note, edit, current.by, reverting)
        note.delete()
        current.edits.append(edit)
        current.structure_changed = True


def change_note(note, *, by, **values):
    """A note's language, source or order (or, for an editor, its paragraph). An editor may; a translator only
    for a note whose stored language, and whose new language, are theirs."""
    with batch(by) as current:
        stored = Note.objects.select_for_update(no_key=True).get(pk=note.pk)
        changed = {name: value for name, value in values.items() if getattr(stored, name) != value}
        if not changed:
            return stored
        _require_language(current.by, stored.language)
        if "language" in changed:
            _require_language(current.by, changed["language"])
        if "paragraph" in changed:
            _require_structure(current.by)
        for name, value in changed.items():
            setattr(stored, name, value)
        _validate(stored)
        stored.save(update_fields=list(changed))
        if "paragraph" in changed:
            current.moved_note_ids.add(stored.pk)
        current.structure_changed = True
    return stored


def _validate(obj):
    """The model's own checks; a translated field is checked in its language columns, not in the active language."""
    obj.full_clean(exclude=languages.translated_field_names(type(obj)), validate_unique=True, validate_constraints=True)


# Structure: sections, chapters, paragraphs' keys, parts and order, aliases


def _translated_columns(model):
    return {
        languages.column(name, code): code
        for name in languages.translated_field_names(model)
        for code in languages.CODES
    }


def save_structure(obj, values, *, by):
    """Set fields of a section, chapter, alias, paragraph or term (not its text or names: see `write_text`) and
    save it.

    A translated field (a title) needs the right to its language; every other field needs an editor.
    """
    texts = registry.written(obj).fields if registry.is_written(obj) else ()
    if texts and any(name.startswith(texts) for name in values):
        raise ValueError(f"The texts of {type(obj).__name__} ({', '.join(texts)}) change through write_text.")
    with batch(by) as current:
        stored = type(obj).objects.select_for_update(no_key=True).get(pk=obj.pk) if obj.pk else obj
        changed = {name: value for name, value in values.items() if obj.pk is None or getattr(stored, name) != value}
        if not changed and obj.pk:
            return stored
        titles = _translated_columns(type(obj))
        for name in changed:
            if name in titles:
                _require_language(current.by, titles[name])
            else:
                _require_structure(current.by)
        if obj.pk is None:
            _require_structure(current.by)
        renamed_from = stored.key if isinstance(stored, Paragraph) and stored.pk and "key" in changed else None
        renumbered_from = stored.number if isinstance(stored, Section) and stored.pk and "number" in changed else None
        for name, value in changed.items():
            setattr(stored, name, value)
        _validate(stored)
        stored.save()
        if renamed_from:
            _keep_former_key(stored, renamed_from)
            number = stored.section.number
            current.move(f"{number}#{renamed_from}", f"{number}#{stored.key}")
        if renumbered_from:
            for key in stored.paragraphs.values_list("key", flat=True):
                current.move(f"{renumbered_from}#{key}", f"{stored.number}#{key}")
        current.restructured.add(type(stored))
        if isinstance(stored, Paragraph):
            current.touched_paragraph_ids.add(stored.pk)
        current.structure_changed = True
    return stored


def _keep_former_key(paragraph, key):
    """A renamed paragraph keeps its old key, so that its old addresses lead to it (and its new key is no former
    one any more, if it is renamed back)."""
    FormerKey.objects.get_or_create(paragraph=paragraph, key=key)
    FormerKey.objects.filter(paragraph=paragraph, key=paragraph.key).delete()


def set_former_keys(paragraph, keys, *, by):
    """A paragraph's former keys as content/ lists them (editors and content files only)."""
    with batch(by) as current:
        _require_structure(current.by)
        keys = list(dict.fromkeys(keys))
        stored = list(paragraph.former_keys.values_list("key", flat=True))
        if sorted(stored) == sorted(keys):
            return
        for key in keys:
            former = FormerKey(paragraph=paragraph, key=key)
            former.full_clean(exclude=["paragraph"])
            taken = Paragraph.objects.filter(section_id=paragraph.section_id, key=key).exclude(pk=paragraph.pk)
            if (
                key == paragraph.key
                or taken.exists()
                or FormerKey.objects.in_section(paragraph.section_id)
                .filter(key=key)
                .exclude(paragraph=paragraph)
                .exists()
            ):
                raise ValidationError(
                    _("%(key)s cannot be a former key of %(paragraph)s: another address has it.")
                    % {"key": key, "paragraph": paragraph.key}
                )
        paragraph.former_keys.exclude(key__in=keys).delete()
        FormerKey.objects.bulk_create([FormerKey(paragraph=paragraph, key=k) for k in keys if k not in stored])
        current.structure_changed = True


def delete(obj, *, by):
    """Delete a section, chapter, alias, paragraph (with its notes) or term: editors only. Notes: `delete_note`."""
    if isinstance(obj, Note):
        return delete_note(obj, by=by)
    with batch(by) as current:
        _require_structure(current.by)
        type(obj).objects.filter(pk=obj.pk).delete()
        current.restructured.add(type(obj))
        current.structure_changed = True
