"""Bringing in a document on the import page: the importer's proposal for each of its sections (nothing written),
then the rows the translator ticked, written together through the write path or not at all."""

from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from ipgsite import documents
from ipgsite.editing import writing
from ipgsite.editing.permissions import translatable_languages
from ipgsite.editing.writing import parse_revision
from ipgsite.importing import applying, proposals

from .base import Action, Conflicting, NotAllowed, Refused


@dataclass
class Document:
    """What was sent, read into blocks, and the token that carries a file's blocks to the apply ("" for a paste)."""

    blocks: list
    packed: str = ""


def read_document(upload=None, raw="", packed=""):
    """A new file, else the pasted text, else the document proposed before. A file's size is checked before it is
    read. Raises Refused, saying why it cannot be read."""
    try:
        if upload is not None:
            problem = documents.too_large(upload.size, upload.name)
            if problem:
                raise Refused(problem)
            _kind, blocks = documents.read(upload.read(), upload.name)
            return Document(blocks, documents.pack(blocks))
        if raw.strip():
            return Document(documents.read_text(raw))
        if packed:
            return Document(documents.unpack(packed), packed)
    except documents.Unreadable as error:
        raise Refused(str(error)) from error
    raise Refused(_("Paste the section's text, or choose a file, first."))


def chosen_rows(found, taken, posted):
    """The import page's form as the importer takes it: ([(proposal, chosen rows)], {"number:key": revision}).

    A ticked row is "2:example-c:ja" (the document's second section), or without its section the first's; the
    revisions are the page's hidden fields, `revision-<position>-<key>` or `revision-<position>-note-<id>`."""
    chosen = {value if value.split(":", 1)[0].isdigit() else f"1:{value}" for value in taken}
    batches, revisions = [], {}
    for position, proposal in enumerate(found, 1):
        prefix = f"{position}:"
        batches.append((proposal, {value[len(prefix) :] for value in chosen if value.startswith(prefix)}))
        for row in proposal.rows:
            if not row.is_new:
                value = posted.get(f"revision-{position}-{row.key}", posted.get(f"revision-{row.key}"))
                revisions[f"{proposal.number}:{row.key}"] = parse_revision(value)
        for note in proposal.notes:
            if note.note is not None:
                value = posted.get(f"revision-{position}-note-{note.note.pk}")
                revisions[f"{proposal.number}:note-{note.note.pk}"] = parse_revision(value)
    return batches, revisions


@dataclass
class Imported:
    written: list  # [(number, key, language, "text" | "note")]
    skipped: bool  # some ticked rows were no longer in the proposal


class ImportDocument(Action):
    """Propose a document's texts, section by section (a document without a heading is `section`'s), and write
    the rows ticked (`taken`, with the revisions the page showed, `posted`) as the user.

    Refused: a user who translates no language (403), a ticked row in a language that is not theirs or a new
    paragraph from someone who is not an editor (403), a row someone changed since the proposal (409), a bad text
    (400): each writes nothing."""

    def __init__(self, user, section, document, *, cjk="auto", source="", taken=(), posted=None):
        self.user, self.section, self.document = user, section, document
        self.cjk, self.source, self.taken, self.posted = cjk, source, list(taken), posted or {}
        self._proposed = None

    def check(self):
        if not translatable_languages(self.user):
            raise NotAllowed(_("Only translators and editors can import text."))

    def propose(self):
        """([SectionProposal], [problem]): where each text of the document would go. Nothing is written."""
        self.check()
        if self._proposed is None:
            self._proposed = proposals.propose_blocks(self.document.blocks, None, self.cjk, default=self.section.number)
        return self._proposed

    def perform(self):
        found, problems = self.propose()
        if problems or not found:
            raise Refused(" ".join(problems))
        batches, revisions = chosen_rows(found, self.taken, self.posted)
        nothing = _("Nothing was imported.")
        try:
            written = applying.apply(batches, self.user, self.source, revisions)
        except writing.Conflict as conflict:
            message = _(
                "%(key)s [%(language)s] was changed by %(who)s since you made the proposal; it was not imported."
            ) % {"key": getattr(conflict.obj, "key", conflict.obj), "language": conflict.code, "who": conflict.by}
            raise Conflicting(conflict, f"{message} {nothing}") from conflict
        except ValidationError as error:
            raise Refused(" ".join(error.messages) + " " + nothing) from error
        finally:
            self._proposed = None  # proposed again, from what is stored now
        return Imported(written, any(taken - applying.choices(proposal) for proposal, taken in batches))
