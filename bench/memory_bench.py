"""Translation memory latency at 1x and 50x the corpus: suggestions found through the text index against a Python
scan of every translated text, measured in the same run.

    .venv/bin/python bench/memory_bench.py                       # SQLite, in a throwaway file
    .venv/bin/python bench/memory_bench.py --postgres postgres://postgres@127.0.0.1:5432/ipg
                                                                 # PostgreSQL: a throwaway database on that server

The corpus is content/ (1x), then content/ plus 49 synthetic copies of every section with text (50x), each copy's
texts ending in its copy number, so that every text has near-duplicates rather than only exact ones. For each
direction (English into Japanese and into Chinese; Japanese, and Chinese, as the reference language for English
and Japanese; Japanese notes, which no text translates yet) it times `memory.suggest` (the translate page's work for
one paragraph or note) and `every_text` (every translated text sharing a trigram, compared in Python) on the same
texts, and prints p50, p95 and the ratio scan/index at p95, and for how many texts both put the same text first
("same best", of those the scan finds a suggestion for).
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from corpus import add_copies, setup_database  # noqa: E402  (bench/ is the script's directory)

BENCH_DATABASE = "ipg_bench_memory"


def marked(text, copy):
    return f"{text} {copy}" if text else text


def directions():
    """(name, [(object, source language, target language)]): the texts a translator would ask suggestions for."""
    from ipgsite.ipg.models import Note, Paragraph

    def paragraphs(*numbers):
        return list(Paragraph.objects.filter(section__number__in=numbers).order_by("section__order", "order"))

    notes = list(Note.objects.filter(paragraph__section__number="2.3", language="ja").order_by("pk")[:12])
    return [
        ("en → ja (2.3, 2.4)", [(p, "en", "ja") for p in paragraphs("2.3", "2.4")]),
        ("en → zh-hans (2.3, 2.4)", [(p, "en", "zh-hans") for p in paragraphs("2.3", "2.4")]),
        ("ja → en (2.3)", [(p, "ja", "en") for p in paragraphs("2.3")]),
        ("zh-hans → ja (2.4)", [(p, "zh-hans", "ja") for p in paragraphs("2.4") if p.text_in("zh-hans")]),
        ("ja notes → en", [(n, "ja", "en") for n in notes]),  # no note is in English: the cost of finding none
    ]


def measure(texts, find, repeat):
    samples, firsts = [], []
    for obj, source, target in texts:
        find(obj, source, target)  # warm-up
        for _ in range(repeat):
            started = time.perf_counter()
            found = find(obj, source, target)
            samples.append((time.perf_counter() - started) * 1000)
        firsts.append(round(found[0].similarity, 6) if found else None)
    return samples, firsts


def every_text(obj, source_code, target_code):
    """The same suggestions from comparing every translated text in Python: the baseline, here only."""
    from ipgsite.search import similar
    from ipgsite.search.kept import kept_entries
    from ipgsite.workspace import memory

    entry = similar.entry_of(obj, source_code)
    if entry is None or source_code == target_code:
        return []
    every = kept_entries().similar(entry, target_code, limit=None, wanted=float("inf"))
    return memory._suggestions(memory._best(entry.folded, every), entry.text, target_code)


def percentile(samples, fraction):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def report(scale, repeat):
    from ipgsite.search.models import Entry
    from ipgsite.workspace import memory

    print(f"\n## corpus {scale}: {Entry.objects.count()} indexed texts (paragraphs and notes × languages)")
    print(
        f"{'direction':<24} {'index p50':>10} {'p95':>8} {'scan p50':>10} {'p95':>9} {'scan/index p95':>15}  same best"
    )
    ratios = []
    for name, texts in directions():
        index, index_best = measure(texts, memory.suggest, repeat)
        scan, scan_best = measure(texts, every_text, max(1, repeat // 4))
        p50, p95 = statistics.median(index), percentile(index, 0.95)
        scan50, scan95 = statistics.median(scan), percentile(scan, 0.95)
        same = sum(a == b for a, b in zip(index_best, scan_best, strict=True) if b is not None)
        with_suggestion = sum(b is not None for b in scan_best)
        ratios.append(scan95 / p95)
        print(
            f"{name:<24} {p50:>8.2f}ms {p95:>6.2f}ms {scan50:>8.2f}ms {scan95:>7.2f}ms {scan95 / p95:>14.1f}x"
            f"  {same}/{with_suggestion}"
        )
    return ratios


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", metavar="URL", help="a PostgreSQL URL: the throwaway database goes on its server")
    parser.add_argument("--repeat", type=int, default=8, help="timed runs of each text with the index (default 8)")
    parser.add_argument("--copies", type=int, default=49, help="synthetic copies for the large corpus (default 49)")
    args = parser.parse_args()

    cleanup = setup_database(args.postgres, BENCH_DATABASE)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ipgsite.settings")
    try:
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connection

        from ipgsite.search.index import rebuild_index

        call_command("migrate", verbosity=0)
        call_command("loadcontent", verbosity=0)
        print(
            f"# translation memory latency on {connection.vendor}; load average {os.getloadavg()[0]:.1f}"
            f" on {os.cpu_count()} cores (other work on the machine shows in p95)"
        )
        report("1x", args.repeat)
        add_copies(args.copies, mark=marked)
        rebuild_index()
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")
        ratios = report(f"{args.copies + 1}x", args.repeat)
        print(
            f"\nat {args.copies + 1}x the index is {min(ratios):.1f}x to {max(ratios):.1f}x faster than the scan at p95"
        )
    finally:
        cleanup()


if __name__ == "__main__":
    main()
