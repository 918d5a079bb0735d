"""A paragraph's history, a comparison of two releases and the MCP server at 50x the corpus, against a section page
and the JSON API, as ratios measured in one run.

    .venv/bin/python bench/beyond_bench.py                      # SQLite, in a throwaway file
    .venv/bin/python bench/beyond_bench.py --postgres URL       # a throwaway database on that server

The corpus is content/ plus 49 synthetic copies of every section with text (bench/corpus.py). Three releases are
published with `publishrelease`: the first; then after the English of one paragraph in every second section and the
Japanese of one note in every fifth are edited; then after 2.3 example-c is edited again, renamed to
example-c-confidant (its old key kept, as the write path keeps it) and translated again, and 2.4's first paragraph
edited. It prints the
median time of each request (the page cache cleared before every request, so each is rendered), with its ratio to
the section page or to the API's paragraph:

- the section page 2.3 (the baseline of pages) and the API's paragraph 2.3 example-c (the baseline of MCP calls);
- the history of 2.3 example-c-confidant, in one and three languages;
- what changed from the first release to the third, once computed and kept (and the first computation, once);
- MCP tools/call over HTTP: get_paragraph, get_section, search_ipg, what_changed, finder_step.

The goals (issue 38): the history and the comparison at most 2x the section page, get_paragraph at most 2x the API.
"""

import argparse
import json
import os
import statistics
import sys
import time
from io import StringIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from corpus import add_copies, setup_database  # noqa: E402  (bench/ is the script's directory)

DATES = ["2024-09-23", "2025-02-10", "2025-06-01"]


def timed(function, repeat):
    function()  # warm-up
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def step(message):
    print(f"  … {message} ({time.strftime('%H:%M:%S')})", file=sys.stderr, flush=True)


def build(copies):
    from django.core.management import call_command

    from ipgsite.caching.versions import content_changed
    from ipgsite.ipg.models import FormerKey, Note, Paragraph, Section
    from ipgsite.releases.models import Release

    call_command("migrate", verbosity=0)
    call_command("loadcontent", verbosity=0)
    Release.objects.all().delete()  # the shipped release; this bench publishes its own, of the 50x corpus
    add_copies(copies)
    step("copies made; publishing the first release")
    call_command("publishrelease", DATES[0], stdout=StringIO())
    sections = list(Section.objects.with_text().order_by("order"))
    for index, section in enumerate(sections):
        if index % 2 == 0:
            paragraph = section.paragraphs.exclude(text_en=None).exclude(text_en="").order_by("order").first()
            if paragraph:
                Paragraph.objects.filter(pk=paragraph.pk).update(text_en=f"{paragraph.text_en} TEST bench edit.")
        if index % 5 == 0:
            note = Note.objects.filter(paragraph__section=section).exclude(body_ja=None).first()
            if note:
                Note.objects.filter(pk=note.pk).update(body_ja=f"{note.body_ja}(テスト)")
    content_changed()
    step("publishing the second release")
    call_command("publishrelease", DATES[1], stdout=StringIO())
    step("editing and renaming 2.3 example-c")

    # As the bench of releases does, the edits are made in the rows (the write path's derived data at 50x is not what
    # this measures); the rename leaves the old key recorded, as the write path does.
    example = Paragraph.objects.get(section__number="2.3", key="example-c")
    Paragraph.objects.filter(pk=example.pk).update(
        key="example-c-confidant",
        text_en=example.text_en.replace("the card", "the TESTCARD"),
        text_ja=example.text_ja + "(テスト)",
    )
    FormerKey.objects.create(paragraph=example, key="example-c")
    first = Paragraph.objects.filter(section__number="2.4").order_by("order").first()
    Paragraph.objects.filter(pk=first.pk).update(text_en=first.text_en + " TEST")
    content_changed()
    step("publishing the third release")
    call_command("publishrelease", DATES[2], stdout=StringIO())
    return len(sections), Paragraph.objects.count(), Note.objects.count()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10, help="timed runs of each request (default 10)")
    parser.add_argument("--copies", type=int, default=49, help="synthetic copies (default 49: 50x)")
    parser.add_argument("--postgres", metavar="URL", help="a PostgreSQL server: a throwaway database is made on it")
    args = parser.parse_args()

    cleanup = setup_database(args.postgres, "ipg_beyond_bench")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ipgsite.test_settings")
    try:
        import django

        django.setup()
        from django.core.cache import cache
        from django.db import connection
        from django.test import Client

        from ipgsite.releases.models import Comparison

        sections, paragraphs, notes = build(args.copies)
        print(
            f"# history, comparisons and MCP at {args.copies + 1}x on {connection.vendor}: {sections} sections with "
            f"text, {paragraphs} paragraphs, {notes} notes, 3 releases; load average {os.getloadavg()[0]:.1f} on "
            f"{os.cpu_count()} cores"
        )
        client = Client()

        def get(url):
            def fetch():
                cache.clear()
                response = client.get(url)
                assert response.status_code == 200, (url, response.status_code)

            return fetch

        def call(tool, arguments):
            body = json.dumps(
                {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": arguments}}
            )

            def fetch():
                cache.clear()
                response = client.post("/mcp", body, content_type="application/json", REMOTE_ADDR="10.9.9.9")
                assert response.status_code == 200, (tool, response.status_code)
                assert response.json()["result"]["isError"] is False, response.content[:300]

            return fetch

        step("measuring")
        comparison = f"/en/changes/?from={DATES[0]}&to={DATES[2]}"
        started = time.perf_counter()
        get(comparison)()
        computed = (time.perf_counter() - started) * 1000
        kept = Comparison.objects.get()
        changed_sections = len(kept.sections)

        pages = {
            "section page 2.3": (get("/en/ipg/2.3/"), "page"),
            "history of 2.3 example-c-confidant": (get("/en/ipg/2.3/example-c-confidant/history/"), "page"),
            "history, en·zh·ja": (get("/en/ipg/2.3/example-c-confidant/history/?langs=en,zh-hans,ja"), "page"),
            f"comparison {DATES[0]} → {DATES[2]} (kept)": (get(comparison), "page"),
            "comparison, API (kept)": (get(f"/api/changes/?from={DATES[0]}&to={DATES[2]}"), "page"),
            "Markdown of 2.3": (get("/en/ipg/2.3/index.md"), "page"),
            "API paragraph 2.3 example-c-confidant": (get("/api/ipg/2.3/example-c-confidant/"), "api"),
            "MCP get_paragraph": (
                call("get_paragraph", {"section": "2.3", "key": "example-c-confidant", "languages": ["en"]}),
                "api",
            ),
            "MCP get_paragraph en·zh·ja": (
                call(
                    "get_paragraph",
                    {"section": "2.3", "key": "example-c-confidant", "languages": ["en", "zh-hans", "ja"]},
                ),
                "api",
            ),
            "MCP get_paragraph, section by name (hce)": (
                call("get_paragraph", {"section": "hce", "key": "example-c-confidant"}),
                "api",
            ),
            "MCP get_section 2.3": (call("get_section", {"section": "2.3"}), "page"),
            "MCP search_ipg 'card'": (call("search_ipg", {"query": "card"}), "page"),
            "MCP what_changed (kept)": (call("what_changed", {"from": DATES[0], "to": DATES[2]}), "page"),
            "MCP finder_step": (call("finder_step", {"answers": ["in-game"]}), "page"),
        }
        medians = {name: timed(fetch, args.repeat) for name, (fetch, _base) in pages.items()}
        bases = {"page": medians["section page 2.3"], "api": medians["API paragraph 2.3 example-c-confidant"]}
        print(f"\n{'what':<44} {'median':>10} {'ratio':>8}  against")
        for name, (_fetch, base) in pages.items():
            against = "the section page" if base == "page" else "the API's paragraph"
            print(f"{name:<44} {medians[name]:>8.1f}ms {medians[name] / bases[base]:>7.2f}x  {against}")
        first = f"comparison {DATES[0]} → {DATES[2]}, computed once"
        print(f"{first:<44} {computed:>8.1f}ms {computed / bases['page']:>7.2f}x  the section page")
        print(
            f"\n({changed_sections} sections changed between the first and the third release; load average now "
            f"{os.getloadavg()[0]:.1f})"
        )
        goals = [
            ("history ≤ 2x the section page", medians["history of 2.3 example-c-confidant"] <= 2 * bases["page"]),
            (
                "comparison ≤ 2x the section page",
                medians[f"comparison {DATES[0]} → {DATES[2]} (kept)"] <= 2 * bases["page"],
            ),
            ("MCP get_paragraph ≤ 2x the API", medians["MCP get_paragraph"] <= 2 * bases["api"]),
        ]
        for goal, met in goals:
            print(f"goal {goal}: {'met' if met else 'NOT MET'}")
    finally:
        cleanup()


if __name__ == "__main__":
    main()
