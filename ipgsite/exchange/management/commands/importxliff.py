from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management.base import BaseCommand, CommandError

from ipgsite.editing.writing import Conflict

from ...xliff import MAX_BYTES, XLIFFError, import_xliff


class Command(BaseCommand):
    help = (
        "Import the targets of an XLIFF 1.2 file exported by exportxliff through the write path, as USERNAME and with "
        "their rights, in one transaction, with history. All or nothing: a unit whose source or target changed on "
        "the site since the export, or a language the user may not edit, changes nothing; each is reported."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="an XLIFF 1.2 file")
        parser.add_argument("--as", dest="username", required=True, help="import as this user, with their rights")

    def handle(self, *args, file, username, **options):
        by = get_user_model().objects.filter(username=username, is_active=True).first()
        if by is None:
            raise CommandError(f"Nothing was imported: no active user {username!r}.")
        path = Path(file)
        try:
            size = path.stat().st_size
            if size > MAX_BYTES:
                raise CommandError(f"Nothing was imported: {file} is {size} bytes, more than {MAX_BYTES}.")
            data = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"Nothing was imported: {file} cannot be read: {exc.strerror}") from None
        try:
            report = import_xliff(data, by)
        except XLIFFError as exc:
            problems = "\n".join(f"  {problem}" for problem in exc.problems)
            raise CommandError(f"Nothing was imported. {file}:\n{problems}") from None
        except (PermissionDenied, ValidationError) as exc:
            message = "; ".join(exc.messages) if isinstance(exc, ValidationError) else str(exc)
            raise CommandError(f"Nothing was imported. {file}: {message}") from None
        except Conflict as conflict:
            raise CommandError(
                f"Nothing was imported: someone saved {conflict.obj} [{conflict.code}] while {file} was being "
                "imported; import it again."
            ) from None
        for id, why in report.refused:
            self.stdout.write(f"refused {id}: {why}")
        if report.refused:
            raise CommandError(
                f"Nothing was imported: {len(report.refused)} units refused. Export again, carry your changes over, "
                "and import that file."
            )
        for id, code, _before, _after in report.changed:
            self.stdout.write(f"changed {id} [{code}]")
        self.stdout.write(f"Imported {file}: {len(report.changed)} changed, {report.unchanged} unchanged.")
