from django.core.management.base import BaseCommand, CommandError

from ...glossary import export_glossary
from ...pairs import PairError, pair
from .exportxliff import write


class Command(BaseCommand):
    help = (
        "Write the termbase of a language pair as a tab-separated glossary, as OmegaT reads it: source term, target "
        "term, comment (the term's kind and key, and the target's other forms). Beside exporttbx, for tools that "
        "read no TBX."
    )

    def add_arguments(self, parser):
        parser.add_argument("--source", required=True, help="the source language, e.g. en")
        parser.add_argument("--target", required=True, help="the target language, e.g. ja")
        parser.add_argument("-o", "--output", default=None, help="where to write (default: standard output)")

    def handle(self, *args, source, target, output=None, **options):
        try:
            source, target = pair(source, target)
        except PairError as exc:
            raise CommandError(str(exc)) from None
        write(self, export_glossary(source, target).encode("utf-8"), output)
