from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management.base import BaseCommand, CommandError

from ipgsite.editing.writing import CONTENT_FILES, Conflict

from ...tbx import TBXError, import_entries, parse_tbx, read_tbx


class Command(BaseCommand):
    help = (
        "Import terms from a TBX-Basic file through the write path: each langSet sets that language's name and forms "
        "of its term (with history and status); languages and terms the file leaves out stay as they are. All or "
        "nothing: a file with any problem changes nothing. Export the result to content/ with exportcontent."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="a TBX-Basic file")
        parser.add_argument(
            "--as",
            dest="username",
            default=None,
            help="import as this user, with their rights (a translator: their languages' names only); "
            "default: as the content files, like loadcontent",
        )

    def handle(self, *args, file, username=None, **options):
        by = CONTENT_FILES
        if username is not None:
            by = get_user_model().objects.filter(username=username, is_active=True).first()
            if by is None:
                raise CommandError(f"Nothing was imported: no active user {username!r}.")
        try:
            data = read_tbx(file)
        except OSError as exc:
            raise CommandError(f"Nothing was imported: {file} cannot be read: {exc.strerror}") from None
        except TBXError as exc:
            raise CommandError(f"Nothing was imported. {file}: {exc}") from None
        try:
            entries = parse_tbx(data)
            stats = import_entries(entries, by)
        except TBXError as exc:
            problems = "\n".join(f"  {problem}" for problem in exc.problems)
            raise CommandError(f"Nothing was imported. {file}:\n{problems}") from None
        except (PermissionDenied, ValidationError, Conflict) as exc:
            message = "; ".join(exc.messages) if isinstance(exc, ValidationError) else str(exc)
            raise CommandError(f"Nothing was imported. {file}: {message}") from None
        self.stdout.write(
            f"Imported {len(entries)} terms from {file}: {stats['created']} created, {stats['updated']} updated, "
            f"{stats['unchanged']} unchanged."
        )
