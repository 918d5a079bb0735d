"""Writing a proposal through the write path: as one user, with that user's rights, all in one transaction.

Every right is checked before anything is written; a refusal, a conflict or a bad text leaves everything as it was.
A new note is added; a changed note is written over the stored note it changes (with the lost-update check).
"""

from django.core.exceptions import PermissionDenied
from django.db.models import Max

from ipgsite.editing import writing
from ipgsite.editing.permissions import require_structure, require_translate
from ipgsite.ipg.models import Note, Paragraph

EDITIONS = {"en": "English", "zh-hans": "Chinese", "ja": "Japanese"}  # a note's source is stored data, in English


def chosen_by_default(proposal):
    """The rows the admin page ticks: new texts and new notes, never a change to stored text."""
    return {f"{row.key}:{p.code}" for row in proposal.rows for p in row.proposals if p.selected_by_default} | {
        f"note:{note.index}" for note in proposal.notes if note.selected_by_default
    }


def choices(proposal):
    """Every row the admin page may show a box for, ticked or not."""
    return {f"{row.key}:{p.code}" for row in proposal.rows for p in row.proposals} | {
        f"note:{note.index}" for note in proposal.notes
    }


def everything(proposal, only=None):
    """Every text placed with confidence that differs from what is stored, and every such note that is new or
    changes a stored one; `only` a language, the rest left as it is."""
    return {
        f"{row.key}:{p.code}"
        for row in proposal.rows
        for p in row.proposals
        if p.kind != "same" and p.sure and only in (None, p.code)
    } | {
        f"note:{note.index}"
        for note in proposal.notes
        if note.kind != "same" and note.sure and only in (None, note.code)
    }


def check_rights(proposals_and_choices, user):
    """Refuse the whole import if any chosen text is in a language the user may not write, or needs an editor."""
    for proposal, chosen in proposals_and_choices:
        for row in proposal.rows:
            if row.is_new and any(f"{row.key}:{p.code}" in chosen for p in row.proposals):
                require_structure(user)
            for p in row.proposals:
                if f"{row.key}:{p.code}" in chosen:
                    require_translate(user, p.code)
        for note in proposal.notes:
            if f"note:{note.index}" in chosen:
                require_translate(user, note.code)


def apply(proposals_and_choices, user, source="", revisions=None):
    """Write the chosen rows of each proposal as `user`; returns [(number, key, language, "text" | "note")].

    `revisions` maps "number:key" to the revision the user saw (the admin page's hidden fields); otherwise the
    revision read with the proposal. Raises PermissionDenied, ValidationError or writing.Conflict, writing nothing.
    """
    if not getattr(user, "is_authenticated", False):
        raise PermissionDenied("Only signed-in translators and editors import text.")
    check_rights(proposals_and_choices, user)
    revisions = revisions or {}
    written = []
    with writing.batch(user):
        for proposal, chosen in proposals_and_choices:
            section = proposal.section
            paragraphs = {}
            for row in proposal.rows:
                wanted = [p for p in row.proposals if f"{row.key}:{p.code}" in chosen and p.kind != "same"]
                paragraph = row.paragraph
                if paragraph is None and (wanted or _notes_on(proposal, row.key, chosen)):
                    paragraph = writing.save_structure(
                        Paragraph(section=section, key=row.key, part=row.part, order=row.order, bullet=row.bullet),
                        {"key": row.key, "part": row.part, "order": row.order, "bullet": row.bullet},
                        by=user,
                    )
                paragraphs[row.key] = paragraph
                for p in wanted:
                    where = f"{section.number}:{row.key}"
                    base = revisions[where] if where in revisions else paragraph.revision
                    if writing.write_text(paragraph, p.code, p.imported, by=user, base_revision=base):
                        written.append((section.number, row.key, p.code, "text"))
            for note in proposal.notes:
                if f"note:{note.index}" not in chosen or note.same:
                    continue
                if note.note is not None:
                    base = revisions.get(f"{section.number}:note-{note.note.pk}", note.note.revision)
                    if writing.write_text(note.note, note.code, note.text, by=user, base_revision=base):
                        written.append((section.number, note.key, note.code, "note"))
                    continue
                paragraph = paragraphs.get(note.key) or Paragraph.objects.get(section=section, key=note.key)
                order = (Note.objects.filter(paragraph=paragraph).aggregate(Max("order"))["order__max"] or 0) + 1
                writing.add_note(
                    paragraph,
                    language=note.code,
                    source=source or default_source(note),
                    order=order,
                    bodies={note.code: note.text},
                    by=user,
                )
                written.append((section.number, note.key, note.code, "note"))
    return written


def default_source(note):
    """A note's source where the importer was not told it: "Japanese annotated edition", "… commentary box"."""
    language = EDITIONS.get(note.code, note.code)
    return f"{language} edition, commentary box" if note.box else f"{language} annotated edition"


def _notes_on(proposal, key, chosen):
    return any(note.key == key and f"note:{note.index}" in chosen for note in proposal.notes)
