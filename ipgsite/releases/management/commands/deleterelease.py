from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from ...deleting import ReleaseCited, delete_release
from ...models import parse_date


class Command(BaseCommand):
    help = (
        "Delete the published release of DATE (YYYY-MM-DD) from the database and its file from content/releases/. "
        "Refused while other pages name it (the next release's changes page, translations that follow its text), "
        "unless --force. Nothing else deletes a release: loadcontent keeps one that has no file."
    )

    def add_arguments(self, parser):
        parser.add_argument("date", help="the release's date, e.g. 2025-06-01")
        parser.add_argument(
            "directory", nargs="?", default=None, help="content directory (default: settings.CONTENT_DIR)"
        )
        parser.add_argument("--force", action="store_true", help="delete it even though other pages name it")

    def handle(self, *args, date, directory=None, force=False, **options):
        effective = parse_date(date)
        if effective is None:
            raise CommandError(f"{date!r} is not a date written as YYYY-MM-DD, e.g. 2024-09-23.")
        path = Path(directory or settings.CONTENT_DIR) / "releases" / f"{date}.toml"
        try:
            held, found, citations = delete_release(effective, path, force=force)
        except ReleaseCited as cited:
            raise CommandError(
                f"Nothing was deleted. Release {date} is named by:\n"
                + "".join(f"  {citation}\n" for citation in cited.citations)
                + f"Run deleterelease {date} --force to delete it all the same: the next release's changes are then "
                "counted from the release before it, and those translations follow an older release or none."
            ) from None
        if not held and not found:
            raise CommandError(f"There is no release of {date}: not in the database, nor at {path}.")
        self.stdout.write(
            f"Deleted release {date}: "
            + ("from the database" if held else "the database did not hold it")
            + (f", and its file {path}." if found else "; it had no file.")
        )
        if citations:
            lines = "".join(f"  {citation}\n" for citation in citations)
            self.stdout.write(f"It was named by:\n{lines}Run exportcontent to write the statuses as they are now.")
