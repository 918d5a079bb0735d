"""What the export commands share: a language pair from --source and --target, and -o FILE or standard output."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from .pairs import PairError, pair


class PairExportCommand(BaseCommand):
    """A command that writes one language pair's file: subclasses give `export(source, target, **options)` (bytes)."""

    def add_arguments(self, parser):
        parser.add_argument("--source", required=True, help="the language translated from, e.g. en")
        parser.add_argument("--target", required=True, help="the language translated into, e.g. ja")
        parser.add_argument("-o", "--output", default=None, help="where to write (default: standard output)")

    def handle(self, *args, source, target, output=None, **options):
        try:
            source, target = pair(source, target)
        except PairError as exc:
            raise CommandError(str(exc)) from None
        self.write(self.export(source, target, **options), output)

    def export(self, source, target, **options):
        raise NotImplementedError

    def write(self, data, output):
        """Write `data` (bytes) to `output`, or to standard output."""
        if output is None:
            self.stdout.write(data.decode("utf-8"), ending="")
            return
        try:
            Path(output).write_bytes(data)
        except OSError as exc:
            raise CommandError(f"{output}: cannot be written: {exc.strerror}") from None
        self.stderr.write(f"Wrote {output}.")
