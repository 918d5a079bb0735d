from ...exporting import PairExportCommand
from ...glossary import export_glossary


class Command(PairExportCommand):
    help = (
        "Write the termbase of a language pair as a tab-separated glossary, as OmegaT reads it: source term, target "
        "term, comment (the term's kind and key, and the target's other forms). Beside exporttbx, for tools that "
        "read no TBX."
    )

    def export(self, source, target, **options):
        return export_glossary(source, target).encode("utf-8")
