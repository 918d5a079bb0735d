"""Statuses in content/: what each translation follows, and whether it was reviewed. A paragraph's translations follow
its English; a note's follow its original (its text in the language it was written in), and a release holds a note
at its place among its paragraph's notes, as releases pair notes."""

from ipgsite.editing.models import State, Status
from ipgsite.editing.writing import Declared
from ipgsite.ipg import languages
from ipgsite.ipg.documents import ParagraphDoc
from ipgsite.ipg.models import Note, Paragraph
from ipgsite.releases.lags import UNKNOWN, newest_holding, originals_in_releases
from ipgsite.releases.snapshots import texts_in_release_files, texts_in_releases

from .toml import ContentError

SOURCE = languages.SOURCE


def followed_release(status, english_in_releases):
    """The date of the newest release whose English this outdated translation follows, or UNKNOWN."""
    paragraph = status.paragraph
    held = english_in_releases.get((paragraph.section.number, paragraph.key), [])
    return newest_holding(held, status.confirmed_source)


def statuses_into_documents(section_docs):
    """Fill each paragraph's and note's document's `follows` and `reviewed` from the database, for `exportcontent`."""

    in_releases, notes_in_releases = texts_in_releases()
    statuses = {}
    for status in Status.objects.of_paragraphs().exclude(language=SOURCE).select_related("paragraph__section"):
        statuses[status.paragraph.section.number, status.paragraph.key, status.language] = status
    for doc in section_docs:
        for pdoc in doc.paragraphs:
            for code in pdoc.texts:
                status = statuses.get((doc.number, pdoc.key, code))
                if status is None or code == SOURCE:
                    continue
                if status.state == State.OUTDATED:
                    pdoc.follows[code] = followed_release(status, in_releases)
                elif status.state == State.REVIEWED:
                    pdoc.reviewed.append(code)
                if status.remark:
                    pdoc.remarks[code] = status.remark
    notes = notes_by_place()
    note_statuses = {(status.note_id, status.language): status for status in Status.of_notes.all()}
    for doc in section_docs:
        for ndoc in doc.notes:
            note = notes[doc.number, ndoc.paragraph, ndoc.place]
            held = originals_in_releases(notes_in_releases, doc.number, ndoc.paragraph, ndoc.place, ndoc.language)
            for code in ndoc.bodies:
                status = note_statuses.get((note.pk, code))
                if status is None or code == ndoc.language:
                    continue
                if status.state == State.OUTDATED:
                    ndoc.follows[code] = newest_holding(held, status.confirmed_source)
                elif status.state == State.REVIEWED:
                    ndoc.reviewed.append(code)
                if status.remark:
                    ndoc.remarks[code] = status.remark


def notes_by_place():
    """{(number, key, place): note}: every note, named as content/ and releases name it."""
    notes = Note.objects.select_related("paragraph__section")
    return {(n.paragraph.section.number, n.paragraph.key, place): n for n, place in notes.places().items()}


def followed_in_files(section_docs, texts_in_releases, content_dir=None):
    """Each translation of a paragraph or note in the documents, with the source its `follows` says it follows:
    (section doc, paragraph or note doc, code, source), the source None for the current one, "" for an older one
    that no release holds, else the text the release held. `texts_in_releases` is (English, notes) as
    `releases.snapshots.texts_in_releases` gives them.

    Raises ContentError, naming the file and the paragraph or note, for a `follows` date that is no release holding
    what the translation follows.
    """
    for doc in section_docs:
        path = f"{content_dir or 'content'}/sections/{doc.number}.toml"
        for entry, name, texts, source_language, held, what in _translated(doc, *texts_in_releases):
            for code in texts:
                if code == source_language:
                    continue
                follows = entry.follows.get(code)
                if follows is None:
                    source = None
                elif follows == UNKNOWN:
                    source = ""
                else:
                    source = dict(held).get(follows)
                    if not source:
                        problem = f"{name}: follows.{code} names {follows}, no release of which holds {what}"
                        raise ContentError(path, problem, entry.line)
                yield doc, entry, code, source


def _translated(doc, in_releases, notes_in_releases):
    """(paragraph or note doc, its name, its texts, its source language, [(date, source)] as releases held it, what
    that source is) of each paragraph and note of a section document."""
    for pdoc in doc.paragraphs:
        held = in_releases.get((doc.number, pdoc.key), [])
        yield pdoc, f"paragraph {pdoc.key!r}", pdoc.texts, SOURCE, held, "its English"
    for ndoc in doc.notes:
        held = originals_in_releases(notes_in_releases, doc.number, ndoc.paragraph, ndoc.place, ndoc.language)
        yield ndoc, ndoc.name, ndoc.bodies, ndoc.language, held, f"its original ({ndoc.language}) in this place"


def check_statuses(section_docs, releases, content_dir=None):
    """Raise ContentError for a `follows` date that no release file holds (`releases` as read_releases reads them)."""

    for _translation in followed_in_files(section_docs, texts_in_release_files(releases), content_dir):
        pass


def declare_statuses(batch, section_docs, content_dir=None):
    """Declare to the batch of a load each translation's status as content/ says it, a paragraph's and a note's: the
    statuses step makes them so once the load's own edits are derived (`editing.statuses.apply_declared`).

    Raises ContentError for a `follows` date that is no release holding the paragraph's English (or the note's
    original).
    """
    paragraphs = {(p.section.number, p.key): p for p in Paragraph.objects.select_related("section")}
    notes = notes_by_place()
    for doc, entry, code, followed in followed_in_files(section_docs, texts_in_releases(), content_dir):
        if isinstance(entry, ParagraphDoc):
            obj = paragraphs[doc.number, entry.key]
        else:
            obj = notes[doc.number, entry.paragraph, entry.place]
        declared = Declared(follows=followed, reviewed=code in entry.reviewed, remark=entry.remarks.get(code, ""))
        batch.declare_status(obj, code, declared)
