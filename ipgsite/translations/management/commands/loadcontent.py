from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from ipgsite.finder.files import read_finder
from ipgsite.finder.loading import load_finder
from ipgsite.ipg.contentfiles import ContentError, read_content
from ipgsite.releases.files import load_releases, read_releases
from ipgsite.terms.files import read_terms
from ipgsite.terms.loading import load_terms

from ...loading import load_documents
from ...status import check_statuses, load_statuses


class Command(BaseCommand):
    help = (
        "Load the IPG from content files into the database. The database ends up holding exactly what the "
        "files say; a file with an error changes nothing. Export admin edits first (exportcontent) to keep them."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "directory", nargs="?", default=None, help="content directory (default: settings.CONTENT_DIR)"
        )

    def handle(self, *args, directory=None, **options):
        directory = Path(directory or settings.CONTENT_DIR)
        if not directory.is_dir():
            raise CommandError(f"{directory}: not a directory")
        try:
            chapters, sections = read_content(directory)
            releases = read_releases(directory, section_docs=sections)
            check_statuses(sections, releases, content_dir=directory)
            terms = read_terms(directory, sections)
            graph = read_finder(directory, sections)
        except ContentError as exc:
            raise CommandError(f"Nothing was loaded. {exc}") from None
        try:
            with transaction.atomic():
                stats, sources_changed = load_documents(chapters, sections)
                load_releases(directory, section_docs=sections)
                load_statuses(sections, sources_changed, content_dir=directory)
                term_stats = load_terms(terms)
                finder_stats = load_finder(graph)
        except ContentError as exc:
            raise CommandError(f"Nothing was loaded. {exc}") from None
        with_text = sum(1 for s in sections if s.has_text())
        self.stdout.write(
            f"Loaded {len(chapters)} chapters and {len(sections)} sections ({with_text} with text) from {directory}: "
            f"{stats['created']} rows created, {stats['updated']} updated, {stats['deleted']} deleted; "
            f"{len(terms)} terms: {term_stats['created']} created, {term_stats['updated']} updated, "
            f"{term_stats['deleted']} deleted; the finder's {len(graph.questions) if graph else 0} questions, "
            f"{len(graph.outcomes) if graph else 0} outcomes and {len(graph.examples) if graph else 0} worked "
            f"examples: {finder_stats['created']} created, {finder_stats['updated']} updated, "
            f"{finder_stats['deleted']} deleted."
        )
