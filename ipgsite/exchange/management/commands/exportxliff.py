from django.core.management.base import CommandError

from ipgsite.ipg.models import Section

from ...exporting import PairExportCommand
from ...xliff import export_xliff


class Command(PairExportCommand):
    help = (
        "Write a language pair's paragraphs and notes as XLIFF 1.2 for translation tools (OmegaT, Trados, memoQ): one "
        "file element per section, one trans-unit per paragraph and per note, each target's state from its status and "
        "the text's revision, so that importxliff can refuse a lost update."
    )

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument("--section", default=None, help="one section only, e.g. 2.3")
        parser.add_argument(
            "--fill-targets",
            action="store_true",
            help="fill each untranslated unit's target with its source, still state needs-translation: OmegaT 3.x "
            "(Debian's 3.6) translates the targets and skips empty ones; importxliff leaves a target equal to its "
            "source alone",
        )

    def export(self, source, target, section=None, fill_targets=False, **options):
        if section is not None:
            found = Section.objects.filter(number=section).first()
            if found is None:
                raise CommandError(f"There is no section {section!r}; nothing was written.")
            section = found
        return export_xliff(source, target, section, fill_targets=fill_targets)
