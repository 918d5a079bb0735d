from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from ipgsite.editing import writing
from ipgsite.editing.writing import CONTENT_FILES
from ipgsite.releases.models import parse_date

from ...finder import load_finder, read_finder
from ...releases import load_releases, read_releases
from ...sections import load_documents, read_content
from ...statuses import check_statuses, declare_statuses
from ...terms import load_terms, read_terms
from ...toml import ContentError


class Command(BaseCommand):
    help = (
        "Load the IPG from content files into the database. The database ends up holding exactly what the "
        "files say; a file with an error changes nothing. Export admin edits first (exportcontent) to keep them. "
        "A published release never changes: a release file that disagrees with what the database froze for its date "
        "is refused, unless named with --replace-release."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "directory", nargs="?", default=None, help="content directory (default: settings.CONTENT_DIR)"
        )
        parser.add_argument(
            "--replace-release",
            action="append",
            default=[],
            metavar="DATE",
            help="replace what the database froze for the release of DATE with its file (repeat for several)",
        )

    def handle(self, *args, directory=None, replace_release=(), **options):
        directory = Path(directory or settings.CONTENT_DIR)
        if not directory.is_dir():
            raise CommandError(f"{directory}: not a directory")
        replace = set()
        for value in replace_release:
            date = parse_date(value)
            if date is None:
                raise CommandError(f"--replace-release {value!r}: not a date written as YYYY-MM-DD, e.g. 2024-09-23.")
            if not (directory / "releases" / f"{value}.toml").exists():
                raise CommandError(f"--replace-release {value}: {directory}/releases/{value}.toml does not exist.")
            replace.add(date)
        try:
            chapters, sections = read_content(directory)
            releases = read_releases(directory)
            check_statuses(sections, releases, content_dir=directory)
            terms = read_terms(directory, sections)
            graph = read_finder(directory, sections)
        except ContentError as exc:
            raise CommandError(f"Nothing was loaded. {exc}") from None
        try:
            # One batch of writes: what the texts set off (statuses, links, the index…) is derived once, at its end.
            with writing.batch(CONTENT_FILES, everything=True) as batch:
                stats = load_documents(chapters, sections)
                load_releases(directory, replace=replace)
                declare_statuses(batch, sections, content_dir=directory)
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
            f"{len(graph.outcomes) if graph else 0} outcomes, {len(graph.examples) if graph else 0} worked "
            f"examples and {len(graph.cases) if graph else 0} cases: {finder_stats['created']} created, "
            f"{finder_stats['updated']} updated, {finder_stats['deleted']} deleted."
        )
