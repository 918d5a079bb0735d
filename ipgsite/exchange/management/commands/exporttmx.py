from django.core.management.base import BaseCommand, CommandError

from ...pairs import PairError, pair
from ...tmx import export_tmx
from .exportxliff import write


class Command(BaseCommand):
    help = (
        "Write the paragraphs that have current text in both languages of a pair as TMX 1.4b, a translation memory "
        "(one language pair per file, as Trados imports them): tuid 2.3#example-c, the release as x-release."
    )

    def add_arguments(self, parser):
        parser.add_argument("--source", required=True, help="the source language, e.g. en")
        parser.add_argument("--target", required=True, help="the target language, e.g. zh-hans")
        parser.add_argument("-o", "--output", default=None, help="where to write (default: standard output)")

    def handle(self, *args, source, target, output=None, **options):
        try:
            source, target = pair(source, target)
        except PairError as exc:
            raise CommandError(str(exc)) from None
        write(self, export_tmx(source, target), output)
