from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from ipgsite.ipg.documents import documents_from_database

from ... import finder as finder_files
from ... import terms as term_files
from ...releases import export_releases
from ...sections import dump_chapters, dump_section
from ...statuses import statuses_into_documents


class Command(BaseCommand):
    help = "Write the database's IPG content (including admin edits) back to content files, ready to commit."

    def add_arguments(self, parser):
        parser.add_argument(
            "directory", nargs="?", default=None, help="content directory (default: settings.CONTENT_DIR)"
        )

    def handle(self, *args, directory=None, **options):
        directory = Path(directory or settings.CONTENT_DIR)
        chapters, sections = documents_from_database()
        statuses_into_documents(sections)
        if not sections:
            raise CommandError("The database holds no sections; nothing was written. Run loadcontent first.")
        (directory / "sections").mkdir(parents=True, exist_ok=True)
        changed = _write(directory / "chapters.toml", dump_chapters(chapters))
        wanted = set()
        for doc in sections:
            path = directory / "sections" / f"{doc.number}.toml"
            wanted.add(path)
            changed += _write(path, dump_section(doc))
        for stale in set((directory / "sections").glob("*.toml")) - wanted:
            stale.unlink()
            changed += 1
        changed += export_releases(directory)
        terms = term_files.documents_from_database()
        if terms:
            changed += _write(directory / term_files.FILENAME, term_files.dump_terms(terms))
        elif (directory / term_files.FILENAME).exists():
            (directory / term_files.FILENAME).unlink()
            changed += 1
        graph = finder_files.documents_from_database()
        if graph:
            changed += _write(directory / finder_files.FILENAME, finder_files.dump_finder(graph))
        elif (directory / finder_files.FILENAME).exists():
            (directory / finder_files.FILENAME).unlink()
            changed += 1
        self.stdout.write(f"Exported {len(sections)} sections to {directory}: {changed} files changed.")


def _write(path, text):
    data = text.encode("utf-8")
    if path.exists() and path.read_bytes() == data:
        return 0
    path.write_bytes(data)
    return 1
