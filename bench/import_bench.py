"""Proposing a whole document: 30 sections at 50 times today's text, against reading and splitting it.

    .venv/bin/python bench/import_bench.py          # SQLite, in a throwaway file

The document is built from the seeds (tests/fixtures/seeds): their text 50 times over, shared out among the IPG's 30
sections in turn, each section under a heading with its own number (seed 001, which has none, gets one). Sections
2.1, 2.3 and 2.4 have paragraphs in content/, so what lands there is aligned to them; the others have none, so
their text is proposed as new paragraphs. It prints the median seconds to propose the whole document
(`propose_document`) and its peak memory (tracemalloc), and the same for the baseline measured in the same run:
reading the file and splitting it into sections (`documents.split`), with the ratios.
"""

import argparse
import os
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SEEDS = ROOT / "tests" / "fixtures" / "seeds"


def build(numbers, times):
    """The seeds' text `times` over, as sections numbered in turn from `numbers`."""
    from ipgsite.importing import documents

    bodies = []
    for path in sorted(SEEDS.glob("*.txt")):
        text = documents.normalise(path.read_text(encoding="utf-8"))
        parts = documents.split(text)
        bodies.append(parts[0].text if parts[0].number else text)
    per_section = {number: [] for number in numbers}
    for copy in range(times):
        for index, body in enumerate(bodies):
            number = numbers[(copy * len(bodies) + index) % len(numbers)]
            per_section[number].append(body)
    return "\n\n".join(f"{heading(number)}\n\n" + "\n\n".join(texts) for number, texts in per_section.items())


def heading(number):
    return f"Appendix {number}" if number.isalpha() else f"IPG {number} Section {number}"


def measured(function, repeat):
    """(median seconds, peak bytes) of `function`."""
    function()  # warm-up
    seconds = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        seconds.append(time.perf_counter() - started)
    tracemalloc.start()
    function()
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return statistics.median(seconds), peak


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--times", type=int, default=50, help="how many times the seeds' text (default 50)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs (default 3)")
    args = parser.parse_args()

    directory = tempfile.TemporaryDirectory(prefix="ipg-import-bench-")
    os.environ["DATABASE_URL"] = f"sqlite:///{directory.name}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ipgsite.settings")
    try:
        import django

        django.setup()
        from django.core.management import call_command

        from ipgsite.importing import documents
        from ipgsite.importing.alignment import propose_document
        from ipgsite.ipg.models import Section

        call_command("migrate", verbosity=0)
        call_command("loadcontent", verbosity=0)
        sections = {section.number: section for section in Section.objects.order_by("order")}
        text = build(list(sections), args.times)
        path = Path(directory.name) / "document.txt"
        path.write_text(text, encoding="utf-8")

        def baseline():
            return documents.split(path.read_text(encoding="utf-8"), known=set(sections))

        def propose():
            proposals, problems = propose_document(path.read_text(encoding="utf-8"), sections)
            assert not problems and len(proposals) == len(sections), (problems, [p.number for p in proposals])
            return proposals

        proposals = propose()
        split_seconds, split_peak = measured(baseline, args.repeat)
        propose_seconds, propose_peak = measured(propose, args.repeat)
        rows = sum(len(p.rows) for p in proposals)
        notes = sum(len(p.notes) for p in proposals)
        print(
            f"document: {len(sections)} sections, {len(text):,} characters ({args.times}x the seeds), "
            f"proposed as {rows:,} paragraphs and {notes:,} notes"
        )
        print(f"{'':28}{'seconds':>10}{'peak MB':>10}")
        print(f"{'read and split (baseline)':28}{split_seconds:>10.3f}{split_peak / 1e6:>10.1f}")
        print(f"{'propose every section':28}{propose_seconds:>10.3f}{propose_peak / 1e6:>10.1f}")
        print(
            f"ratio to the baseline: {propose_seconds / split_seconds:,.0f}x the time, "
            f"{propose_peak / split_peak:,.1f}x the peak memory"
        )
    finally:
        directory.cleanup()


if __name__ == "__main__":
    main()
