"""Proposing a whole document: 30 sections at 50 times today's text, and a 1 MB PDF and its copied text, against
reading and splitting the text.

    .venv/bin/python bench/import_bench.py          # SQLite, in a throwaway file
    .venv/bin/python bench/import_bench.py --corpus # also the table of the corpus (tests/fixtures/documents)

The document is built from the seeds (tests/fixtures/seeds): their text 50 times over, shared out among the IPG's 30
sections in turn, each section under its heading (number and English title, as the outline has them). Sections
2.1, 2.3 and 2.4 have paragraphs in content/, so what lands there is aligned to them, or recognised by its text as
theirs where a second copy starts without a heading; the others have none, so their text is proposed as new
paragraphs. The PDF is the seeds printed by Chromium, each under its section's heading, with a running header and
page numbers (as the corpus prints them), as many times as makes it 1 MB; its text is what a PDF viewer's copy gives
(pypdf).

It prints the median seconds and the peak memory (tracemalloc) of each, and of the baseline measured in the same run:
reading the text and splitting it into sections (`ipgsite.documents`, cleaning, `sections.split`), with the ratios.
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


SEED_SECTIONS = {"000": "2.3", "001": "2.3", "002": "2.4", "003": "2.3", "004": "2.1"}


def body(path):
    """A seed's text after its title line (its page text before the title dropped)."""
    from ipgsite.documents.blocks import normalise
    from ipgsite.importing.vocabulary import SECTION_TITLE

    lines = normalise(path.read_text(encoding="utf-8")).split("\n")
    for index, line in enumerate(lines):
        if SECTION_TITLE.match(line) and " | " not in line:
            return "\n".join(lines[index + 1 :])
    return "\n".join(lines)


def build(sections, times):
    """The seeds' text `times` over, as sections in turn, each under its heading."""
    bodies = [body(path) for path in sorted(SEEDS.glob("*.txt"))]
    numbers = list(sections)
    per_section = {number: [] for number in numbers}
    for copy in range(times):
        for index, text in enumerate(bodies):
            number = numbers[(copy * len(bodies) + index) % len(numbers)]
            per_section[number].append(text)
    return "\n\n".join(f"{heading(sections[number])}\n\n" + "\n\n".join(texts) for number, texts in per_section.items())


def heading(section):
    return f"Appendix {section.number} {section.title_en}" if section.number.isalpha() else str(section)


def build_pdf(path, target=1_000_000):
    """The seeds printed by Chromium as the corpus prints them (tests/fixtures/documents/make.py: each under its
    title, seed 001 after 2.3's English, a running header and page numbers), repeated until the PDF is `target`
    bytes. Returns how many copies it holds."""
    sys.path.insert(0, str(ROOT / "tests" / "fixtures" / "documents"))
    import make

    copies = 4
    while True:
        make.make_pdf(make.print_html(["003", "001", "000", "002", "004"] * copies, "ja"), path, "IPG")
        if path.stat().st_size >= target or copies >= 256:
            return copies
        copies = max(copies + 1, round(copies * target / path.stat().st_size))


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


def pdf_text(pdf):
    import pypdf

    return "\n".join(page.extract_text() for page in pypdf.PdfReader(str(pdf)).pages) + "\n"


def corpus_table():
    """Each document of the corpus: paragraphs and notes, precision and recall against the clean seeds."""
    import logging

    sys.path.insert(0, str(ROOT / "tests"))
    from importing_measure import corpus_scores, manifest

    logging.disable(logging.WARNING)
    print()
    print("| document | kind | paragraphs P / R | notes P / R | uncertain | refused |")
    print("|---|---|---|---|---|---|")
    for entry in manifest():
        (pp, pr), (np_, nr), problem, uncertain = corpus_scores(entry)
        print(
            f"| {entry['file']} | {entry['kind']} | {pp:.2f} / {pr:.2f} | {np_:.2f} / {nr:.2f} | {uncertain} "
            f"| {problem[:60]} |"
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--times", type=int, default=50, help="how many times the seeds' text (default 50)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs (default 3)")
    parser.add_argument("--corpus", action="store_true", help="also print the corpus's precision and recall")
    parser.add_argument("--no-pdf", action="store_true", help="leave out the 1 MB PDF (it needs Chromium)")
    args = parser.parse_args()

    directory = tempfile.TemporaryDirectory(prefix="ipg-import-bench-")
    os.environ["DATABASE_URL"] = f"sqlite:///{directory.name}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ipgsite.settings")
    try:
        import django

        django.setup()
        from django.core.management import call_command

        from ipgsite import documents
        from ipgsite.importing import cleaning, sections
        from ipgsite.importing.proposals import Stored, propose_document, propose_file
        from ipgsite.ipg.models import Section

        call_command("migrate", verbosity=0)
        call_command("loadcontent", verbosity=0)
        by_number = {section.number: section for section in Section.objects.order_by("order")}
        text = build(by_number, args.times)
        path = Path(directory.name) / "document.txt"
        path.write_text(text, encoding="utf-8")
        outline = Stored(by_number).outline()

        def baseline():
            blocks = cleaning.clean(documents.read_text(path.read_text(encoding="utf-8")))
            return sections.split(blocks, outline)

        def propose():
            proposals, problems = propose_document(path.read_text(encoding="utf-8"), by_number)
            assert not problems, problems
            return proposals

        proposals = propose()
        split_seconds, split_peak = measured(baseline, args.repeat)
        propose_seconds, propose_peak = measured(propose, args.repeat)
        rows = sum(len(p.rows) for p in proposals)
        notes = sum(len(p.notes) for p in proposals)
        print(
            f"document: {len(by_number)} sections, {len(text):,} characters ({args.times}x the seeds), "
            f"proposed as {len(proposals)} sections, {rows:,} paragraphs and {notes:,} notes"
        )
        table = [
            ("read and split (baseline)", split_seconds, split_peak),
            ("propose every section", propose_seconds, propose_peak),
        ]
        if not args.no_pdf:
            pdf = Path(directory.name) / "document.pdf"
            copies = build_pdf(pdf)
            pasted = Path(directory.name) / "document.pdf.txt"
            pasted.write_text(pdf_text(pdf), encoding="utf-8")

            def read_pdf():
                return documents.read(pdf.read_bytes(), pdf.name)

            def propose_pdf():
                return propose_file(pdf.read_bytes(), pdf.name, by_number)

            def propose_pasted():
                return propose_file(pasted.read_bytes(), pasted.name, by_number)

            found, problems = propose_pdf()
            print(
                f"PDF: {pdf.stat().st_size:,} bytes ({copies}x the seeds), its copied text {pasted.stat().st_size:,} "
                f"bytes; proposed as {len(found)} sections{'; ' + problems[0][:80] if problems else ''}"
            )
            repeat = max(1, args.repeat - 2)
            table += [
                ("read the 1 MB PDF", *measured(read_pdf, repeat)),
                ("propose the 1 MB PDF", *measured(propose_pdf, repeat)),
                ("propose its copied text", *measured(propose_pasted, repeat)),
            ]
        print(f"{'':28}{'seconds':>10}{'peak MB':>10}{'x time':>9}{'x memory':>10}")
        for name, seconds, peak in table:
            print(
                f"{name:28}{seconds:>10.3f}{peak / 1e6:>10.1f}{seconds / split_seconds:>9.1f}{peak / split_peak:>10.1f}"
            )
        if args.corpus:
            corpus_table()
    finally:
        directory.cleanup()


if __name__ == "__main__":
    main()
