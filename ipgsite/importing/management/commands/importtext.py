import json
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management.base import BaseCommand, CommandError

from ipgsite.editing.writing import Conflict
from ipgsite.ipg import languages
from ipgsite.ipg.models import Section

from ...alignment import propose_document
from ...applying import apply as apply_proposals
from ...applying import everything

MAX_BYTES = 50_000_000


class Command(BaseCommand):
    help = (
        "Propose where each paragraph and note of a document goes (one section, or a whole document split at its "
        "section headings): wiki pages with English and Chinese, annotated editions, plain English. A dry run "
        "unless --apply, which writes every text that differs and every new note as --as, with that user's rights, "
        "in one transaction, with history."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="a UTF-8 text file ('-' reads standard input)")
        parser.add_argument("--section", help="the section of a file without a heading, or the one section to take")
        parser.add_argument(
            "--language",
            default="auto",
            help="the language of the Chinese or Japanese lines: zh-hans or ja (default: kana means Japanese)",
        )
        parser.add_argument("--source", default="", help='the notes\' source, e.g. "Japanese annotated edition"')
        parser.add_argument("--apply", action="store_true", help="write the proposal (needs --as)")
        parser.add_argument("--as", dest="username", help="the user who writes, with that user's rights")
        parser.add_argument("--json", action="store_true", help="print the proposal as JSON")

    def handle(self, *args, file, section=None, language="auto", source="", apply=False, username=None, **options):
        if language not in ("auto", *languages.CJK):
            raise CommandError(
                f"--language is the language of the Chinese or Japanese lines: {', '.join(languages.CJK)}."
            )
        if apply and not username:
            raise CommandError("--apply writes as a user: name one with --as USERNAME.")
        user = self._user(username) if username else None
        if len(source) > 200:
            raise CommandError("--source is at most 200 characters.")
        sections = {s.number: s for s in Section.objects.all()}
        if section is not None and section not in sections:
            raise CommandError(f"There is no section {section}.")
        proposals, problems = propose_document(self._read(file), sections, language, number=section)
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
            written = apply_proposals([(p, everything(p)) for p in proposals], user, source)
        except PermissionDenied as error:
            raise CommandError(f"Nothing was imported: {error}") from error
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

    def _user(self, username):
        user = get_user_model().objects.filter(username=username).first()
        if user is None or not user.is_active:
            raise CommandError(f"There is no active user {username!r}.")
        return user

    def _read(self, file):
        import sys

        try:
            data = sys.stdin.buffer.read(MAX_BYTES + 1) if file == "-" else Path(file).read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror}.") from error
        if len(data) > MAX_BYTES:
            raise CommandError(f"{file} is larger than {MAX_BYTES // 1_000_000} MB.")
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise CommandError(f"{file} is not UTF-8 text (byte {error.start}).") from error

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
                write(
                    f"  {row.key} [{p.code}] {p.kind}{' (new paragraph)' if row.is_new else ''}: {_short(p.imported)}"
                )
        for note in proposal.notes:
            write(f"  note on {note.key} [{note.code}] {note.kind}: {_short(note.text)}")
        for unit in proposal.unplaced:
            write(f"  unplaced (line {unit.line}): {_short(unit.summary())}")


def _short(text, length=70):
    text = " ".join(text.split())
    return text if len(text) <= length else text[: length - 1] + "…"
