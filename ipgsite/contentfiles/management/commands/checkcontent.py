from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from ipgsite.ipg import languages
from ipgsite.terms.attestation import misplaced, read_seeds

from ...finder import read_finder
from ...releases import read_releases
from ...sections import parse_section, read_content
from ...statuses import check_statuses
from ...terms import read_terms
from ...toml import ContentError


class Command(BaseCommand):
    help = (
        "Check the content files: per section, which paragraphs lack which language; unknown keys and "
        "fields; notes that point nowhere; terms with unknown keys, shared names or defining paragraphs that don't "
        "exist, or citing a seed line or paragraph (found) that does not hold the name; the finder's graph "
        "(cycles, dead ends, unreachable nodes, unknown citations, duplicate nodes) and its worked examples (an "
        "example paragraph with no recorded path, or a path that does not end at its section). "
        "Exits non-zero on structural errors."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "directory", nargs="?", default=None, help="content directory (default: settings.CONTENT_DIR)"
        )
        parser.add_argument("--seeds", default=None, help="the source texts (default: settings.SEEDS_DIR)")

    def handle(self, *args, directory=None, seeds=None, **options):
        directory = Path(directory or settings.CONTENT_DIR)
        seeds_dir = Path(seeds or settings.SEEDS_DIR)
        errors = []
        try:
            _chapters, sections = read_content(directory)
            releases = read_releases(directory)
            check_statuses(sections, releases, content_dir=directory)
        except ContentError as exc:
            errors.append(str(exc))
            sections = []
        try:
            terms = read_terms(directory, sections) if not errors else []
        except ContentError as exc:
            errors.append(str(exc))
            terms = []
        if terms:
            problems = misplaced(terms, sections, read_seeds(seeds_dir))
            errors += [f"{directory / 'terms.toml'}: {problem} (seeds: {seeds_dir})" for problem in problems]
        try:
            graph = read_finder(directory, sections) if sections else None
        except ContentError as exc:
            errors.append(str(exc))
            graph = None
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
        if terms:
            kinds = {}
            for term in terms:
                kinds[term.kind] = kinds.get(term.kind, 0) + 1
            counts = ", ".join(f"{count} {kind}" for kind, count in kinds.items())
            missing = {code: sum(1 for t in terms if code not in t.names) for code in languages.CODES}
            gaps = ", ".join(f"{count} without a name in {code}" for code, count in missing.items() if count)
            self.stdout.write(f"terms: {len(terms)} ({counts})" + (f"; {gaps}" if gaps else ""))
        if graph:
            missing = {code: sum(1 for q in graph.questions if code in q.missing) for code in languages.CODES}
            gaps = ", ".join(f"{count} missing in {code}" for code, count in missing.items() if count)
            self.stdout.write(
                f"finder: {len(graph.questions)} questions, {len(graph.outcomes)} outcomes, "
                f"{len(graph.examples)} worked examples, {len(graph.cases)} cases" + (f"; {gaps}" if gaps else "")
            )
        for error in errors:
            self.stderr.write(f"error: {error}")
        if errors:
            raise CommandError(f"{len(errors)} structural error(s) in {directory}")
