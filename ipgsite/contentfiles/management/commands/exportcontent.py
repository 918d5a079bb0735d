from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from ...edits import record
from ...exporting import working_files, write_files
from ...releases import export_releases, files_without_release


class Command(BaseCommand):
    help = (
        "Write the database's IPG content (including admin edits) back to content files, ready to commit. A release "
        "file whose release the database does not hold is kept (deleterelease deletes one)."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "directory", nargs="?", default=None, help="content directory (default: settings.CONTENT_DIR)"
        )

    def handle(self, *args, directory=None, **options):
        directory = Path(directory or settings.CONTENT_DIR)
        with transaction.atomic():
            files = working_files()
            if not files:
                raise CommandError("The database holds no sections; nothing was written. Run loadcontent first.")
            changed = write_files(directory, files)
            changed += export_releases(directory)
            # The files now hold the database's edits: a load may follow.
            record("export", directory, files)
        sections = sum(1 for name in files if name.startswith("sections/"))
        self.stdout.write(f"Exported {sections} sections to {directory}: {changed} files changed.")
        unheld = files_without_release(directory)
        if unheld:
            self.stdout.write(
                f"Kept {len(unheld)} release files whose release the database does not hold: {', '.join(unheld)}. "
                "loadcontent loads them; deleterelease DATE deletes one."
            )
