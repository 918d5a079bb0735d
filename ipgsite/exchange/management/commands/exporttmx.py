from ...exporting import PairExportCommand
from ...tmx import export_tmx


class Command(PairExportCommand):
    help = (
        "Write the paragraphs that have current text in both languages of a pair as TMX 1.4b, a translation memory "
        "(one language pair per file, as Trados imports them): tuid 2.3#example-c, the release as x-release and the "
        "revision as x-ipg-revision, so that importtmx can refuse a lost update."
    )

    def export(self, source, target, **options):
        return export_tmx(source, target)
