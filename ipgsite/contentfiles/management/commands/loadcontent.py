from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from ipgsite.editing import writing
from ipgsite.editing.writing import CONTENT_FILES
from ipgsite.releases.models import parse_date

from ...edits import describe, edits_since_sync, record
from ...exporting import working_files
from ...finder import load_finder, read_finder
from ...releases import load_releases, read_releases, releases_without_file
from ...sections import load_documents, read_content
from ...statuses import check_statuses, declare_statuses
from ...terms import load_terms, read_terms
from ...toml import ContentError

KEEP_EDITS = "Run exportcontent to write them to the files (and commit them), or loadcontent --discard-edits."


class Command(BaseCommand):
    help = (
        "Load the IPG from content files into the database: the working text, terms and finder become what the "
        "files say; a file with an error changes nothing. A load never overwrites an edit made in the database since "
        "the last load or export: it refuses, naming them, unless --discard-edits. A published release never "
        "changes: a release file that disagrees with what the database froze for its date is refused, unless named "
        "with --replace-release; a release with no file is kept (deleterelease deletes one)."
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
        parser.add_argument("--discard-edits", action="store_true", help="load over the database's edits (lost)")
        parser.add_argument(
            "--skip-if-edited", action="store_true", help="if the database holds edits, load nothing and succeed"
        )

    def handle(self, *args, directory=None, replace_release=(), discard_edits=False, skip_if_edited=False, **options):
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
            # The releases the database keeps without a file count too: a section file may follow one.
            check_statuses(sections, releases + releases_without_file(releases), content_dir=directory)
            terms = read_terms(directory, sections)
            graph = read_finder(directory, sections)
        except ContentError as exc:
            raise CommandError(f"Nothing was loaded. {exc}") from None
        try:
            with transaction.atomic():
                edited = edits_since_sync()
                if edited and not discard_edits:
                    report = describe(edited)
                    if skip_if_edited:
                        return self.stderr.write(f"{report}\nNothing was loaded from {directory}. {KEEP_EDITS}")
                    raise CommandError(f"Nothing was loaded. {report}\n{KEEP_EDITS}")
                discarded = describe(edited) if edited else ""
                # One batch of writes: what the texts set off (statuses, links, the index…) is derived once, at its end.
                with writing.batch(CONTENT_FILES, everything=True) as batch:
                    stats = load_documents(chapters, sections)
                    release_stats = load_releases(directory, replace=replace)
                    declare_statuses(batch, sections, content_dir=directory)
                    term_stats = load_terms(terms)
                    finder_stats = load_finder(graph)
                record("load", directory, working_files())
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
            f"{finder_stats['updated']} updated, {finder_stats['deleted']} deleted; {len(releases)} releases: "
            f"{release_stats['created']} created, {release_stats['updated']} updated."
        )
        if release_stats["kept"]:
            dates = ", ".join(date.isoformat() for date in release_stats["kept"])
            self.stdout.write(
                f"Kept {len(release_stats['kept'])} published releases that have no file in {directory}/releases/: "
                f"{dates}. Run exportcontent to write them; deleterelease DATE deletes one."
            )
        if discarded:
            self.stdout.write(f"Discarded (--discard-edits). {discarded}")
