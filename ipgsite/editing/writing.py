"""The one way the IPG's content changes: every writer (admin, translate page, import, revert, `loadcontent`) calls
these functions.

Each write checks the writer's rights against what is stored (never against what was posted), cleans the text,
locks the row, refuses a lost update, and records the revision and history. What a write then sets off (translation
status, cross-links, search index, cache version) is listed, in order, in `settings.AFTER_WRITE`; it runs once per
batch of writes, in the same transaction. Nothing else writes content, and reading a page writes nothing.
"""

import contextvars
from contextlib import contextmanager
from dataclasses import dataclass, field

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from ipgsite.finder.models import Example, Outcome, Question
from ipgsite.ipg import languages
from ipgsite.ipg.models import Alias, Chapter, FormerKey, Note, Paragraph, Section
from ipgsite.terms.models import Term

from . import after_write
from .models import Change
from .permissions import can_edit_structure, require_structure, require_translate

MAX_LENGTH = 20_000
TEXT_FIELD = {Paragraph: "text", Note: "body", Term: "name", Question: "text"}
# A term's translated fields: its name, and its other forms one per line.
TERM_FIELDS = ("name", "variants", "inflections")
# A finder question's translated fields: the question, and its answers one per line.
QUESTION_FIELDS = ("text", "answers")


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
    field: str = ""  # a term's field ("name", "variants", "inflections"); "" for a paragraph's text or a note's body


@dataclass
class Batch:
    """The writes of one request or one load, handed to the after-write steps together when the last one is done."""

    by: object
    edits: list = field(default_factory=list)
    names_changed: bool = False  # a title, number or alias: any text may mention a section differently now
    terms_changed: bool = False  # a term added, deleted or changed: any text may use the terms differently now
    finder_changed: bool = False  # a finder question or outcome added, deleted or restructured
    structure_changed: bool = False  # sections, paragraphs, parts, order, notes added or deleted
    everything: bool = False  # a load from content files: derive everything again
    touched_paragraph_ids: set = field(default_factory=set)  # paragraphs whose key, part or order changed
    moved_note_ids: set = field(default_factory=set)  # notes moved to another paragraph

    @property
    def paragraph_ids(self):
        return {e.obj.pk for e in self.edits if isinstance(e.obj, Paragraph)}

    @property
    def note_ids(self):
        return {e.obj.pk for e in self.edits if isinstance(e.obj, Note)}

    @property
    def term_ids(self):
        return {e.obj.pk for e in self.edits if isinstance(e.obj, Term)}

    @property
    def question_ids(self):
        return {e.obj.pk for e in self.edits if isinstance(e.obj, Question)}

    def __bool__(self):
        return (
            bool(self.edits)
            or self.names_changed
            or self.terms_changed
            or self.finder_changed
            or self.structure_changed
            or self.everything
        )


_batch = contextvars.ContextVar("batch", default=None)


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
            yield current
            if current:
                after_write.apply(current)
    finally:
        _batch.reset(token)


class OutsideTheWritePath(RuntimeError):
    """A paragraph or note saved or deleted by other means than this module: its history, rights and derived data
    would be skipped."""


def refuse_writes_outside_a_batch(obj):
    if _batch.get() is None:
        raise OutsideTheWritePath(f"{obj!r} changes only through ipgsite.editing.writing.")


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


def clean_form(text, field):
    """A term's name (one line, at most its column's length) or its forms (one per line, each once)."""
    text = clean_text(text)
    if field == "name":
        if "\n" in text:
            raise ValidationError(_("A term's name is one line; put other forms under its variants."))
        limit = Term._meta.get_field("name").max_length
        if len(text) > limit:
            raise ValidationError(_("A term's name has at most %(max)d characters.") % {"max": limit})
        return text
    return "\n".join(dict.fromkeys(line.strip() for line in text.split("\n") if line.strip()))


def clean_wording(text, field, question):
    """A finder question (one paragraph of plain text) or its answers (one line per answer, all or none)."""
    text = clean_text(text)
    if field == "text":
        return text
    lines = [line.strip() for line in text.split("\n")] if text else []
    if lines and (len(lines) != len(question.choices) or not all(lines)):
        raise ValidationError(
            _("Write one answer per line, %(count)d lines in the order the answers show.")
            % {"count": len(question.choices)}
        )
    return "\n".join(lines)


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
    return languages.translated(obj, field or TEXT_FIELD[type(obj)], code)


def text_column(obj_or_model, code, field=None):
    model = obj_or_model if isinstance(obj_or_model, type) else type(obj_or_model)
    return languages.column(field or TEXT_FIELD[model], code)


def changed_since(obj, code, revision, field=None):
    """The changes to this text made after `revision`, oldest first."""
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
    Change.objects.create(
        paragraph_id=paragraph_id,
        note=obj if isinstance(obj, Note) and edit.action != Change.Action.DELETE else None,
        term=obj if isinstance(obj, Term) else None,
        question=obj if isinstance(obj, Question) else None,
        action=edit.action,
        field=edit.field or TEXT_FIELD[type(obj)],
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
    if isinstance(obj, Term):
        field = field or "name"
        if field not in TERM_FIELDS:
            raise ValueError(f"A term has no field {field!r}.")
        text = clean_form(text, field)
    elif isinstance(obj, Question):
        field = field or "text"
        if field not in QUESTION_FIELDS:
            raise ValueError(f"A finder question has no field {field!r}.")
        text = clean_wording(text, field, obj)
    else:
        field = None
        text = clean_text(text)
    if base_revision is None:
        raise ValidationError(_("The form does not say which version you started from; reload the page and try again."))
    theirs = text_in(obj, code, field)
    if text == theirs:
        return None
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
    field = (field or "name") if isinstance(obj, Term) else (field or "text") if isinstance(obj, Question) else None
    with batch(by) as current:
        obj = type(obj).objects.select_for_update().get(pk=obj.pk)
        text = check_text(obj, code, text, by, base_revision, minor, field=field)
        if text is None:
            return False
        if field == "name" and text:
            refuse_shared_name(obj, code, text)
        if field == "name" and not text:
            refuse_nameless([obj.name_in(other) for other in languages.others(code)])
        edit = Edit(
            obj=obj,
            language=code,
            before=text_in(obj, code, field),
            after=text,
            minor=check_minor(by, code, minor),
            field=field or "",
        )
        setattr(obj, text_column(obj, code, field), text or None)
        obj.revision += 1
        obj.save(update_fields=[text_column(obj, code, field), "revision"])
        _record(obj, edit, current.by, reverting)
        current.edits.append(edit)
    return True


def refuse_nameless(names):
    """A term keeps at least one name: `names` are the names it would have left."""
    if not any(names):
        raise ValidationError(_("A term keeps at least one name; an editor deletes a term that has none."))


def refuse_shared_name(term, code, name):
    """Two terms never share a name in one language: a reader could not tell which one a text means.

    `term` is the term named, or None for a term not yet saved."""
    column = text_column(Term, code, "name")
    others = Term.objects.exclude(pk=term.pk) if term is not None else Term.objects.all()
    other = others.filter(**{f"{column}__iexact": name}).first()
    if other is not None:
        raise ValidationError(
            _("%(name)s is already the name of the term %(other)s.") % {"name": name, "other": other.key}
        )


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
        stored = Note.objects.select_for_update().get(pk=note.pk)
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
    if isinstance(obj, Paragraph) and any(name.startswith("text") for name in values):
        raise ValueError("A paragraph's text changes through write_text.")
    if isinstance(obj, Term) and any(name.startswith(TERM_FIELDS) for name in values):
        raise ValueError("A term's names and forms change through write_text.")
    if isinstance(obj, Question) and any(name.startswith(QUESTION_FIELDS) for name in values):
        raise ValueError("A finder question's wording changes through write_text.")
    with batch(by) as current:
        stored = type(obj).objects.select_for_update().get(pk=obj.pk) if obj.pk else obj
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
        for name, value in changed.items():
            setattr(stored, name, value)
        _validate(stored)
        stored.save()
        if renamed_from:
            _keep_former_key(stored, renamed_from)
        if isinstance(stored, (Section, Alias, Chapter)):
            current.names_changed = True
        if isinstance(stored, Paragraph):
            current.touched_paragraph_ids.add(stored.pk)
        current.terms_changed |= isinstance(stored, Term)
        current.finder_changed |= isinstance(stored, (Question, Outcome, Example))
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
        current.names_changed |= isinstance(obj, (Section, Alias, Chapter))
        current.terms_changed |= isinstance(obj, Term)
        current.finder_changed |= isinstance(obj, (Question, Outcome, Example))
        current.structure_changed = True
