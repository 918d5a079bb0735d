"""Publishing a release and rendering its changes page at 50x the corpus, against rendering a section page.

    .venv/bin/python bench/release_bench.py          # SQLite, in a throwaway file

The corpus is content/ plus 49 synthetic copies of every section with text (as bench/corpus.py
makes them). It publishes a first release, edits the English of one paragraph in every second section
with English text and the Japanese of one note in every fifth, publishes a second release, and prints the
median time to publish, to write content/releases/ (export_releases), to render the second release's
changes page, and to render a section page and the three-language compare page (page cache cleared
before every request, so each is rendered), with the ratios to the section page.

Then the two long texts: a made-up Japanese paragraph of about 19,000 characters, published, edited in a
few places and published again. It prints what publishing that release costs (its diffs are computed
then), what loading every release file into a database that holds none costs (every release's diffs
computed again), and the long text's changes page, which reads the stored diffs, against the section
page; and, once, the former diff of the whole text token by token, which the changes page ran on
every request.
"""

import argparse
import datetime
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from corpus import add_copies  # noqa: E402  (bench/ is the script's directory)


def timed(function, repeat):
    function()  # warm-up
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        function()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10, help="timed runs of each page (default 10)")
    parser.add_argument("--copies", type=int, default=49, help="synthetic copies (default 49: 50x)")
    args = parser.parse_args()

    directory = tempfile.TemporaryDirectory(prefix="ipg-release-bench-")
    os.environ["DATABASE_URL"] = f"sqlite:///{directory.name}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ipgsite.settings")
    try:
        import django

        django.setup()
        from django.core.cache import cache
        from django.core.management import call_command
        from django.db import connection
        from django.test import Client

        from ipgsite.caching.versions import content_changed
        from ipgsite.contentfiles.releases import export_releases
        from ipgsite.ipg.models import Note, Paragraph, Section
        from ipgsite.releases.models import Release
        from ipgsite.releases.publishing import publish
        from ipgsite.releases.snapshots import changed_section_count

        call_command("migrate", verbosity=0)
        call_command("loadcontent", verbosity=0)
        Release.objects.all().delete()  # the shipped release; this bench publishes its own, of the 50x corpus
        add_copies(args.copies)
        sections = list(Section.objects.with_text().order_by("order"))
        paragraphs = Paragraph.objects.count()
        print(
            f"# releases at {args.copies + 1}x on {connection.vendor}: {len(sections)} sections with text, "
            f"{paragraphs} paragraphs, {Note.objects.count()} notes; load average {os.getloadavg()[0]:.1f} "
            f"on {os.cpu_count()} cores"
        )

        first = datetime.date(2024, 9, 23)
        started = time.perf_counter()
        publish(first)
        publish_first = (time.perf_counter() - started) * 1000

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

        second = datetime.date(2025, 2, 10)
        started = time.perf_counter()
        publish(second)
        publish_second = (time.perf_counter() - started) * 1000

        content = Path(directory.name) / "content"
        started = time.perf_counter()
        export_releases(content)
        exported = (time.perf_counter() - started) * 1000
        sizes = {p.name: p.stat().st_size for p in (content / "releases").glob("*.toml")}

        client = Client()

        def get(url):
            def fetch():
                cache.clear()
                response = client.get(url)
                assert response.status_code == 200, (url, response.status_code)

            return fetch

        pages = {
            "section page 2.3": "/en/ipg/2.3/",
            "compare 2.3 en·zh·ja": "/en/ipg/2.3/?langs=en,zh-hans,ja",
            "changes page (ja)": f"/ja/changes/{second.isoformat()}/",
            "changes page en·zh·ja": f"/en/changes/{second.isoformat()}/?langs=en,zh-hans,ja",
            "list of releases": "/en/changes/",
        }
        medians = {name: timed(get(url), args.repeat) for name, url in pages.items()}
        base = medians["section page 2.3"]
        changed = Release.objects.get(date=second)
        print(f"\n{'what':<28} {'median':>10} {'÷ section page':>15}")
        for name, value in [
            ("publish (first release)", publish_first),
            ("publish (second release)", publish_second),
            ("export content/releases/", exported),
            *medians.items(),
        ]:
            print(f"{name:<28} {value:>8.1f}ms {value / base:>14.1f}x")
        print(
            f"\n(second release: {changed.sections.count()} frozen sections, "
            f"{changed_section_count(changed.previous(), changed)} changed; release files "
            + ", ".join(f"{name} {size} B" for name, size in sorted(sizes.items()))
            + f"; load average now {os.getloadavg()[0]:.1f})"
        )
        print(long_text_costs(client, timed, get, args.repeat, base, second))
    finally:
        directory.cleanup()


def long_japanese(seed, sentences=200):
    """About 19,000 characters of made-up Japanese-like text (kana and a few kanji), in sentences."""
    import random

    rng = random.Random(seed)
    kana = "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをん手札公開"
    sentence = lambda: "テスト" + "".join(rng.choice(kana) for _ in range(rng.randint(80, 110))) + "。"  # noqa: E731
    return "".join(sentence() for _ in range(sentences))


def long_text_costs(client, timed, get, repeat, base, after):
    """Publish two versions of a 19,000-character paragraph, load every release file again, render the changes."""
    import difflib

    from ipgsite.caching.versions import content_changed
    from ipgsite.contentfiles.releases import export_releases, load_releases
    from ipgsite.ipg.models import Paragraph
    from ipgsite.releases.diffing import tokens
    from ipgsite.releases.models import Release
    from ipgsite.releases.publishing import publish

    old = long_japanese(1)
    new = old[:4000] + "変更" + old[4002:9000] + "追加した文。" + old[9000:15000] + old[15100:]
    paragraph = Paragraph.objects.filter(section__number="2.3", key="example-b")
    paragraph.update(text_ja=old)
    content_changed()
    dates = [after + datetime.timedelta(days=30), after + datetime.timedelta(days=60)]
    publish(dates[0])
    paragraph.update(text_ja=new)
    content_changed()
    started = time.perf_counter()
    publish(dates[1])
    published = (time.perf_counter() - started) * 1000

    import tempfile

    with tempfile.TemporaryDirectory(prefix="ipg-release-bench-files-") as files:
        export_releases(files)
        Release.objects.all().delete()
        started = time.perf_counter()
        load_releases(files)
        loaded = (time.perf_counter() - started) * 1000

    page = timed(get(f"/ja/changes/{dates[1].isoformat()}/"), repeat)
    a, b = tokens(old), tokens(new)
    started = time.perf_counter()
    difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    former = (time.perf_counter() - started) * 1000
    rows = [
        (f"publish the long text's release ({len(old)} and {len(new)} characters)", published),
        (f"load every release file ({Release.objects.count()} releases, their diffs)", loaded),
        ("the long text's changes page (ja)", page),
        ("former whole-text diff, once (per request)", former),
    ]
    return "\n# the two long texts\n" + "\n".join(
        f"{name:<66} {value:>9.1f}ms {value / base:>8.1f}x" for name, value in rows
    )


if __name__ == "__main__":
    main()
