"""An uncached search page against its search step, at 50x the content (`make bench-load` runs it on PostgreSQL).

    .venv/bin/python bench/search_view_bench.py [--postgres URL] [--copies 49] [--repeat 5]

For each of the 50 searches of bench/search_mix.py: the search step (`search.finding.find()`, with the section
names the view reads), the view as a whole (the same, and the page rendered), and the whole request as a process
asked for it the first time sees it (every middleware, the page cache storing and compressing the page).
Medians of --repeat runs a query, each query's ratio to its search step; the goal is at most 3x.
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from corpus import add_copies, setup_database  # noqa: E402  (bench/ is the script's directory)
from search_mix import MIX  # noqa: E402

GOAL = 3.0


def timed(call):
    started = time.perf_counter()
    result = call()
    return (time.perf_counter() - started) * 1000, result


def measure(repeat):
    from django.contrib.auth.models import AnonymousUser
    from django.test import Client, RequestFactory
    from django.utils import translation

    from ipgsite.search import views
    from ipgsite.search.finding import SectionNames, find
    from ipgsite.search.query import Query

    factory = RequestFactory()
    rows = []
    for code, texts in MIX.items():
        for text in texts:
            with translation.override(code):
                runs = []
                for attempt in range(repeat + 1):
                    request = factory.get(f"/{code}/search/", {"q": text})
                    request.user = AnonymousUser()
                    query = Query.from_request(request)
                    step, results = timed(lambda q=query, c=code: find(q, c, names=SectionNames()))
                    view, response = timed(lambda r=request: views.search(r))
                    assert response.status_code == 200, (code, text, response.status_code)
                    # A process that never served it (the page cache's memory is its own): rendered in full.
                    reader = Client(HTTP_ACCEPT_ENCODING="br, gzip")
                    reader.handler.load_middleware()
                    address = f"/{code}/search/?{urlencode({'q': text})}"
                    whole, answer = timed(lambda r=reader, a=address: r.get(a))
                    assert answer.status_code == 200 and answer["X-Cache"] == "miss", (code, text)
                    if attempt:  # the first run warms what each query reads
                        runs.append((step, view, whole))
            step, view, whole = (statistics.median(run[i] for run in runs) for i in range(3))
            rows.append((code, text, step, view, whole, results.total if hasattr(results, "total") else None))
    return rows


def report(rows, scale):
    print(f"\nUncached search pages at {scale}, medians (ms); ratios to the search step:")
    print(f"   {'query':<34} {'step':>7} {'view':>7} {'ratio':>6} {'request':>8} {'ratio':>6}")
    for code, text, step, view, whole, _total in rows:
        print(
            f"   {code + ' ' + text:<34} {step:>7.1f} {view:>7.1f} {view / step:>5.2f}x "
            f"{whole:>8.1f} {whole / step:>5.2f}x"
        )
    view_ratios = [view / step for _c, _t, step, view, _w, _n in rows]
    whole_ratios = [whole / step for _c, _t, step, _v, whole, _n in rows]
    steps = sum(r[2] for r in rows)
    print(
        f"   all 50: search steps {steps:.0f} ms, views {sum(r[3] for r in rows):.0f} ms "
        f"({sum(r[3] for r in rows) / steps:.2f}x), whole requests {sum(r[4] for r in rows):.0f} ms "
        f"({sum(r[4] for r in rows) / steps:.2f}x); per query, view median {statistics.median(view_ratios):.2f}x, "
        f"worst {max(view_ratios):.2f}x; whole request median {statistics.median(whole_ratios):.2f}x, "
        f"worst {max(whole_ratios):.2f}x (load average {os.getloadavg()[0]:.1f})"
    )
    return max(whole_ratios)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", metavar="URL", help="a PostgreSQL URL: the throwaway database goes on its server")
    parser.add_argument("--copies", type=int, default=49, help="synthetic copies (default 49: 50x)")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    cleanup = setup_database(args.postgres, "ipg_bench_search_view")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ipgsite.test_settings")
    try:
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connection

        from ipgsite.caching.versions import content_changed
        from ipgsite.search.index import rebuild_index

        call_command("migrate", verbosity=0)
        call_command("loadcontent", verbosity=0)
        add_copies(args.copies)
        rebuild_index()
        content_changed()
        print(f"# {connection.vendor}, {args.copies + 1}x the content, {args.repeat} runs a query")
        worst = report(measure(args.repeat), f"{args.copies + 1}x")
        verdict = "meets" if worst <= GOAL else "MISSES"
        print(f"   worst whole request {worst:.2f}x its search step, which {verdict} the goal of {GOAL:.0f}x")
        if worst > GOAL:
            sys.exit(1)
    finally:
        cleanup()


if __name__ == "__main__":
    main()
