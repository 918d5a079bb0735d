from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from ipgsite.ipg import languages
from ipgsite.ipg.contentfiles import ContentError, parse_section, read_content
from ipgsite.releases.files import read_releases


class Command(BaseCommand):
    help = (
        "Check the content files: per section, which paragraphs lack which language; unknown keys and "
        "fields; notes that point nowhere. Exits non-zero on structural errors."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "directory", nargs="?", default=None, help="content directory (default: settings.CONTENT_DIR)"
        )

    def handle(self, *args, directory=None, **options):
        directory = Path(directory or settings.CONTENT_DIR)
        errors = []
        try:
            _chapters, sections = read_content(directory)
            read_releases(directory, section_docs=sections)
        except ContentError as exc:
            errors.append(str(exc))
            sections = []
        # read_content stops at the first structural error; check every file for a full report.
        if errors:
            for path in sorted((directory / "sections").glob("*.toml")):
                try:
                    parse_section(path)
                except ContentError as exc:
                    if str(exc) not in errors:
                        errors.append(str(exc))
        for doc in sections:
            if not doc.paragraphs:
                self.stdout.write(f"{doc.number}: no text yet")
                continue
            missing = {code: [p.key for p in doc.paragraphs if code not in p.texts] for code in languages.CODES}
            complete = [code for code, keys in missing.items() if not keys]
            line = f"{doc.number}: {len(doc.paragraphs)} paragraphs, {len(doc.notes)} notes"
            if complete:
                line += f"; complete in {', '.join(complete)}"
            self.stdout.write(line)
            for code, keys in missing.items():
                if keys and len(keys) == len(doc.paragraphs):
                    self.stdout.write(f"  {code}: missing entirely")
                elif keys:
                    self.stdout.write(f"  {code}: missing {len(keys)}: {', '.join(keys)}")
        for error in errors:
            self.stderr.write(f"error: {error}")
        if errors:
            raise CommandError(f"{len(errors)} structural error(s) in {directory}")
