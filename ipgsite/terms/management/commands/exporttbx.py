from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from ...models import Term
from ...tbx import export_tbx


class Command(BaseCommand):
    help = "Write the termbase as TBX-Basic, for translation tools: to FILE, or to standard output."

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="?", default=None, help="where to write (default: standard output)")

    def handle(self, *args, file=None, **options):
        if not Term.objects.exists():
            raise CommandError("The database holds no terms; nothing was written. Run loadcontent first.")
        data = export_tbx()
        if file is None:
            self.stdout.write(data.decode("utf-8"), ending="")
            return
        try:
            Path(file).write_bytes(data)
        except OSError as exc:
            raise CommandError(f"{file}: cannot be written: {exc.strerror}") from None
        self.stderr.write(f"Wrote {Term.objects.count()} terms to {file}.")
