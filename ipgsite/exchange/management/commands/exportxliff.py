from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from ipgsite.ipg.models import Section

from ...pairs import PairError, pair
from ...xliff import export_xliff


class Command(BaseCommand):
    help = (
        "Write a language pair's paragraphs and notes as XLIFF 1.2 for translation tools (OmegaT, Trados, memoQ): one "
        "file element per section, one trans-unit per paragraph and per note, each target's state from its status and "
        "the text's revision, so that importxliff can refuse a lost update."
    )

    def add_arguments(self, parser):
        parser.add_argument("--source", required=True, help="the language translated from, e.g. en")
        parser.add_argument("--target", required=True, help="the language translated into, e.g. ja")
        parser.add_argument("--section", default=None, help="one section only, e.g. 2.3")
        parser.add_argument("-o", "--output", default=None, help="where to write (default: standard output)")

    def handle(self, *args, source, target, section=None, output=None, **options):
        try:
            source, target = pair(source, target)
        except PairError as exc:
            raise CommandError(str(exc)) from None
        if section is not None:
            found = Section.objects.filter(number=section).first()
            if found is None:
                raise CommandError(f"There is no section {section!r}; nothing was written.")
            section = found
        write(self, export_xliff(source, target, section), output)


def write(command, data, output):
    """Write `data` (bytes) to `output`, or to standard output."""
    if output is None:
        command.stdout.write(data.decode("utf-8"), ending="")
        return
    try:
        Path(output).write_bytes(data)
    except OSError as exc:
        raise CommandError(f"{output}: cannot be written: {exc.strerror}") from None
    command.stderr.write(f"Wrote {output}.")
