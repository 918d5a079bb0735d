"""Search latency at 1x and 50x the corpus: the indexes against a plain LIKE scan, measured in the same run.

    .venv/bin/python bench/search_bench.py                       # SQLite, in a throwaway file
    .venv/bin/python bench/search_bench.py --postgres postgres://postgres@127.0.0.1:5432/ipg
                                                                 # PostgreSQL: a throwaway database on that server

The corpus is content/ (1x), then content/ plus 49 synthetic copies of every section with text (50x),
each copy a new section whose paragraphs and notes repeat the originals. For each query kind it prints
p50 and p95 of `search.finding.find()` (the view's work: count, rank, one page of results with
snippets), first with the indexes and then with a LIKE scan of every entry doing the same work,
and the ratio LIKE/index. The goal is an index p95 under 10 ms at 50x. Every query goes through all the search
does: stems, traditional characters converted, "Did you mean" (the near misses find nothing, and each of
their words is looked up alone), partial matches (a word the text lacks: each word, then groups of words, looked up
before the page of those holding most of them) and CJK phrases split into parts.
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

QUERIES = {
    "CJK, 1 character": ["占", "札", "警", "腹", "誘"],
    "CJK, 2 characters": ["占卜", "手札", "警告", "誘発", "公开"],
    "CJK, 3+ characters": ["闇の腹心", "黑暗亲信", "非公開カード", "再调度", "ライブラリー"],
    "English": ["Dark Confidant", "mulligan", "library", "scry", "hidden card"],
    "English, inflected": ["scried", "mulliganed", "drew four cards", "scry two cards", "shuffling"],
    "traditional Chinese": ["黑暗親信", "額外看牌", "再調度", "非公開牌張", "誘發"],
    "across languages": ["scry", "Dark Confidant", "マリガン", "library", ("scry", ["ja"])],
    "near misses": ["mulligna", "Hiden Card Eror", "Markd Cards", "mulligna procedure", "librery"],
    "partial matches": [
        "eight cards in opening hand",
        "player forgot to reveal card",
        "opponent forgot Dark Confidant reveal",
        "Ancestral Recall drew five cards",
        "Dark Confidant mulligan",
    ],
    "CJK phrases": ["先手抓牌", "手札が多すぎる", "手牌太多", "忘记展示黑暗亲信", "闇の腹心を公開しなかった"],
}
BENCH_DATABASE = f"ipg_bench_search_{os.getpid()}"  # its own, so that two runs on one server don't collide


def analyze(connection):
    """Fresh planner statistics, as autovacuum would gather on a live PostgreSQL."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")


def measure(queries, repeat, by_like):
    from ipgsite.search.finding import SectionNames, find
    from ipgsite.search.query import Query

    samples, found = [], 0
    for text in queries:
        text, languages = text if isinstance(text, tuple) else (text, ())
        query = Query.parse(text, languages)
        find(query, "en", names=SectionNames(), by_like=by_like)  # warm-up
        for _ in range(repeat):
            started = time.perf_counter()
            results = find(query, "en", names=SectionNames(), by_like=by_like)
            samples.append((time.perf_counter() - started) * 1000)
        found += results.total
    return samples, found


def percentile(samples, fraction):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def report(scale, repeat):
    from ipgsite.search.models import Entry

    print(f"\n## corpus {scale}: {Entry.objects.count()} entries (paragraphs and notes × languages)")
    print(
        f"{'query kind':<22} {'index p50':>10} {'p95':>8} {'LIKE p50':>10} {'p95':>8} {'LIKE/index p95':>15}  results"
    )
    worst = 0.0
    for kind, queries in QUERIES.items():
        index, found = measure(queries, repeat, by_like=False)
        like, like_found = measure(queries, repeat, by_like=True)
        assert found == like_found, f"{kind}: the index found {found}, LIKE found {like_found}"
        p50, p95 = statistics.median(index), percentile(index, 0.95)
        like50, like95 = statistics.median(like), percentile(like, 0.95)
        worst = max(worst, p95)
        print(
            f"{kind:<22} {p50:>8.2f}ms {p95:>6.2f}ms {like50:>8.2f}ms {like95:>6.2f}ms {like95 / p95:>14.1f}x  {found}"
        )
    return worst


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", metavar="URL", help="a PostgreSQL URL: the throwaway database goes on its server")
    parser.add_argument("--repeat", type=int, default=20, help="timed runs of each query (default 20)")
    parser.add_argument(
        "--copies", type=int, default=49, help="synthetic copies for the large corpus (default 49: 50x)"
    )
    args = parser.parse_args()

    cleanup = setup_database(args.postgres, BENCH_DATABASE)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ipgsite.settings")
    try:
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connection

        from ipgsite.caching.versions import content_changed
        from ipgsite.search.index import rebuild_index

        call_command("migrate", verbosity=0)
        call_command("loadcontent", verbosity=0)
        analyze(connection)
        print(
            f"# search latency on {connection.vendor} ({connection.settings_dict['NAME']}), {args.repeat} runs a query;"
            f" load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (other work on the machine shows in p95)"
        )
        report("1x", args.repeat)

        started = time.perf_counter()
        add_copies(args.copies)
        copied = time.perf_counter() - started
        started = time.perf_counter()
        rebuild_index()
        indexed = time.perf_counter() - started
        content_changed()  # the copies were written around the write path: what was read before is stale
        analyze(connection)
        print(f"\n(made {args.copies} copies in {copied:.1f} s; indexed everything in {indexed:.1f} s)")
        worst = report(f"{args.copies + 1}x", args.repeat)
        verdict = "meets" if worst < 10 else "MISSES"
        print(f"\nworst index p95 at {args.copies + 1}x: {worst:.2f} ms, which {verdict} the goal of 10 ms", end="")
        print(f" (load average now {os.getloadavg()[0]:.1f})")
    finally:
        cleanup()


if __name__ == "__main__":
    main()
