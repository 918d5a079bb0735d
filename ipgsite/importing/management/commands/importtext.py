import json
import sys
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management.base import BaseCommand, CommandError

from ipgsite.documents import ACCEPTED, MAX_BYTES, too_large
from ipgsite.editing.writing import Conflict
from ipgsite.ipg import languages
from ipgsite.ipg.models import Section

from ...applying import apply as apply_proposals
from ...applying import everything
from ...proposals import propose_file

LEFT_OUT = 2  # the exit status of an --apply that wrote what was sure and left the rest out


class Command(BaseCommand):
    help = (
        "Propose where each paragraph and note of a document goes (one section, or a whole document split at its "
        f"section headings): a paste or a file ({ACCEPTED}). A dry run unless --apply, which writes, as --as and "
        "with that user's rights, in one transaction and with history, every text placed with confidence that "
        f"differs and every new or changed note; it exits with status {LEFT_OUT} when it left something out."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help=f"a file ({ACCEPTED}), or '-' for text on standard input")
        parser.add_argument("--section", help="the section of a file without a heading, or the one section to take")
        parser.add_argument(
            "--language",
            default="auto",
            help="the language of the document's Chinese or Japanese: zh-hans or ja (default: kana means Japanese)",
        )
        parser.add_argument("--only", help="apply one language only (en, zh-hans or ja); the rest is left as it is")
        parser.add_argument("--source", default="", help='the notes\' source, e.g. "Japanese annotated edition"')
        parser.add_argument("--apply", action="store_true", help="write the proposal (needs --as)")
        parser.add_argument("--as", dest="username", help="the user who writes, with that user's rights")
        parser.add_argument("--json", action="store_true", help="print the proposal as JSON")

    def handle(
        self, *args, file, section=None, language="auto", only=None, source="", apply=False, username=None, **options
    ):
        if language not in ("auto", *languages.CJK):
            raise CommandError(
                f"--language is the language of the Chinese or Japanese lines: {', '.join(languages.CJK)}."
            )
        if only is not None and only not in languages.CODES:
            raise CommandError(f"--only names one language: {', '.join(languages.CODES)}.")
        if apply and not username:
            raise CommandError("--apply writes as a user: name one with --as USERNAME.")
        user = self._user(username) if username else None
        if len(source) > 200:
            raise CommandError("--source is at most 200 characters.")
        sections = {s.number: s for s in Section.objects.all()}
        if section is not None and section not in sections:
            raise CommandError(f"There is no section {section}.")
        data = self._read(file)
        proposals, problems = propose_file(data, "" if file == "-" else file, sections, language, number=section)
        if problems:
            raise CommandError(" ".join(str(problem) for problem in problems))
        if options["json"]:
            self.stdout.write(json.dumps({"sections": [p.as_json() for p in proposals]}, ensure_ascii=False, indent=1))
        else:
            for proposal in proposals:
                self._summary(proposal)
        if not apply:
            return
        try:
            written = apply_proposals([(p, everything(p, only)) for p in proposals], user, source)
        except PermissionDenied as error:
            hint = "" if only else " (--only LANGUAGE applies one language and leaves the rest)"
            raise CommandError(f"Nothing was imported: {error}{hint}") from error
        except ValidationError as error:
            raise CommandError(f"Nothing was imported: {' '.join(error.messages)}") from error
        except Conflict as conflict:
            raise CommandError(
                f"Nothing was imported: {conflict.obj} [{conflict.code}] was changed by {conflict.by} meanwhile."
            ) from conflict
        stream = self.stderr if options["json"] else self.stdout
        stream.write(
            f"Imported {sum(kind == 'text' for *_r, kind in written)} texts and "
            f"{sum(kind == 'note' for *_r, kind in written)} notes as {user.get_username()}."
        )
        left_out = [line for proposal in proposals for line in _left_out(proposal, only)]
        if left_out:
            raise CommandError(
                f"{len(left_out)} texts were left out, not placed with confidence:\n" + "\n".join(left_out),
                returncode=LEFT_OUT,
            )

    def _user(self, username):
        user = get_user_model().objects.filter(username=username).first()
        if user is None or not user.is_active:
            raise CommandError(f"There is no active user {username!r}.")
        return user

    def _read(self, file):
        """The file's bytes; its size checked before it is read."""
        if file == "-":
            data = sys.stdin.buffer.read(MAX_BYTES + 1)
            if len(data) > MAX_BYTES:
                raise CommandError(f"Standard input is larger than {MAX_BYTES // 1_000_000} MB.")
            return data
        path = Path(file)
        try:
            problem = too_large(path.stat().st_size, file)
            if problem:
                raise CommandError(problem)
            if not path.is_file():
                raise CommandError(f"Cannot read {file}: it is not a file.")
            return path.read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror}.") from error

    def _summary(self, proposal):
        write = self.stdout.write
        write(
            f"{proposal.number}: {len(proposal.rows)} paragraphs, {len(proposal.notes)} notes, "
            f"{len(proposal.unplaced)} unplaced"
        )
        for warning in proposal.warnings:
            write(f"  ! {warning}")
        for row in proposal.rows:
            for p in row.proposals:
                new = " (new paragraph)" if row.is_new else ""
                unsure = " (uncertain)" if not p.sure else ""
                write(f"  {row.key} [{p.code}] {p.kind}{new}{unsure}: {_short(p.imported)}")
        for note in proposal.notes:
            unsure = " (uncertain)" if not note.sure else ""
            write(f"  note on {note.key} [{note.code}] {note.kind}{unsure}: {_short(note.text)}")
        for unit in proposal.unplaced:
            write(f"  unplaced ({unit.where or f'line {unit.line}'}): {_short(unit.summary())}")


def _left_out(proposal, only):
    """What an --apply left out of a section: unplaced texts and uncertain ones, each named."""
    found = []
    for unit in proposal.unplaced:
        if only is None or only in unit.texts:
            found.append(f"  {proposal.number}, {unit.where or f'line {unit.line}'}: {_short(unit.summary())}")
    for row in proposal.rows:
        for p in row.proposals:
            if not p.sure and p.kind != "same" and only in (None, p.code):
                found.append(f"  {proposal.number}#{row.key} [{p.code}] (uncertain): {_short(p.imported)}")
    for note in proposal.notes:
        if not note.sure and note.kind != "same" and only in (None, note.code):
            found.append(f"  {proposal.number}#{note.key} note [{note.code}] (uncertain): {_short(note.text)}")
    return found


def _short(text, length=70):
    text = " ".join(text.split())
    return text if len(text) <= length else text[: length - 1] + "…"
