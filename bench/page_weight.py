"""Bytes on the wire: section 2.3 compared in three languages, against its bare text, and every single-language
section page, against the first round trip of TCP (14,600 bytes).

Prints, measured in one run:
- the compare page's HTML (gzip level 6, as Django's GZipMiddleware sends it) as a ratio to its bare text (the
  section's paragraphs in the three languages and its notes, gzip level 6); the goal is at most 1.3;
- the same page with the stylesheets and scripts a first visit loads, as `collectstatic` writes them for a
  deployment (hashed, with the .gz copies whitenoise serves), as a ratio to the bare text; the goal is at most 2.0;
- the page's words alone, every tag removed (its labels, term cards, finder and "Mentioned in" included): what no
  markup can go below;
- the heaviest single-language section page (every section with text, every language), against 14,600 bytes;
- brotli too, when installed.

Run: `make bench-page-weight`.
"""

import gzip
import json
import os
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ipgsite.settings")
workdir = tempfile.mkdtemp(prefix="ipg-bench-")
os.environ["DATABASE_URL"] = f"sqlite:///{workdir}/bench.sqlite3"

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import override_settings  # noqa: E402

from ipgsite.ipg import languages  # noqa: E402
from ipgsite.ipg.models import Note, Paragraph, Section  # noqa: E402

URL = "/en/ipg/2.3/?langs=en,zh-hans,ja"
FIRST_ROUND_TRIP = 14_600  # bytes: 10 segments of 1,460 (RFC 6928)
HTML_RATIO, FIRST_VISIT_RATIO = 1.3, 2.0


def gzip6(data):
    return len(gzip.compress(data, compresslevel=6, mtime=0))


def brotli5():
    try:
        import brotli
    except ImportError:
        return None
    return lambda data: len(brotli.compress(data, quality=5))


def static_files(html):
    """The site's own stylesheets and scripts the page loads, as static names (css/site.css, js/table.js…)."""
    return [
        name.decode() for name in re.findall(rb'<(?:link rel="stylesheet" href|script src)="/static/([^"]+)"', html)
    ]


def words_only(html):
    """The page without a single tag or attribute, its runs of space as one: the floor of any markup."""
    text = re.sub(rb"<script\b.*?</script>|<style\b.*?</style>", b"", html, flags=re.S)
    return re.sub(rb"\s+", b" ", re.sub(rb"<[^>]*>", b"", text))


def bare_text(number, codes):
    texts = []
    for paragraph in Paragraph.objects.filter(section__number=number).order_by("order"):
        texts += [paragraph.text_in(code) for code in codes]
    for note in Note.objects.filter(paragraph__section__number=number).order_by("paragraph__order", "order"):
        texts += [getattr(note, f"body_{code.replace('-', '_')}") for code in codes]
    return "\n\n".join(t for t in texts if t).encode()


def deployed_static():
    """collectstatic as a deployment runs it: {name: (hashed name, bytes as sent gzipped, raw bytes)}."""
    root = Path(workdir) / "static"
    storages = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "ipgsite.staticfiles.MinifiedManifestStaticFilesStorage"},
    }
    with override_settings(STATIC_ROOT=root, STORAGES=storages):
        call_command("collectstatic", interactive=False, verbosity=0)
    manifest = json.loads((root / "staticfiles.json").read_text())["paths"]
    files = {}
    for name, hashed in manifest.items():
        raw = (root / hashed).read_bytes()
        sent = root / f"{hashed}.gz"  # whitenoise sends its precompressed copy (none when it would not be smaller)
        files[name] = (hashed, sent.stat().st_size if sent.exists() else len(raw), raw)
    return files


def single_language_pages(client):
    """(gzip bytes, url) of every section page with text, in every interface language."""
    found = []
    for section in Section.objects.filter(paragraphs__isnull=False).distinct():
        for code in languages.CODES:
            url = f"/{code}/ipg/{section.number}/"
            client.cookies.clear()
            found.append((gzip6(client.get(url, HTTP_HOST="127.0.0.1").content), url))
    return sorted(found, reverse=True)


def main():
    call_command("migrate", verbosity=0)
    call_command("loadcontent", verbosity=0)
    client = Client()
    html = client.get(URL, HTTP_HOST="127.0.0.1").content
    bare = bare_text("2.3", languages.CODES)
    assets = deployed_static()
    loaded = static_files(html)

    html_gz, bare_gz = gzip6(html), gzip6(bare)
    first_visit = html_gz + sum(assets[name][1] for name in loaded)
    print(f"Section 2.3, {URL}: HTML {len(html):,} bytes, bare text {len(bare):,} bytes")
    print(f"  {'':34} {'gzip':>8} {'ratio':>6} {'goal':>6}")
    print(f"  {'bare text':34} {bare_gz:>8,}")
    words_gz = gzip6(words_only(html))
    print(f"  {'its words alone, no tag':34} {words_gz:>8,} {words_gz / bare_gz:>6.2f}")
    print(f"  {'HTML':34} {html_gz:>8,} {html_gz / bare_gz:>6.2f} {HTML_RATIO:>6.1f}")
    for name in loaded:
        hashed, sent, raw = assets[name]
        print(f"    + {hashed:30} {sent:>8,}   ({len(raw):,} bytes, {gzip6(raw):,} at gzip 6)")
    label = "HTML, CSS and JS, first visit"
    print(f"  {label:34} {first_visit:>8,} {first_visit / bare_gz:>6.2f} {FIRST_VISIT_RATIO:>6.1f}")
    brotli = brotli5()
    if brotli:
        print(f"  brotli 5: HTML {brotli(html):,}, bare text {brotli(bare):,}, ratio {brotli(html) / brotli(bare):.2f}")

    pages = single_language_pages(client)
    heaviest, url = pages[0]
    print(
        f"Single-language section pages ({len(pages)}): heaviest {url} {heaviest:,} bytes gzip, "
        f"{heaviest / FIRST_ROUND_TRIP:.2f} of the first round trip ({FIRST_ROUND_TRIP:,} bytes)"
    )
    for size, url in pages[:6]:
        print(f"  {url:24} {size:>8,}")
    verdicts = [
        ("compare HTML", html_gz / bare_gz <= HTML_RATIO),
        ("first visit", first_visit / bare_gz <= FIRST_VISIT_RATIO),
        ("single-language", heaviest <= FIRST_ROUND_TRIP),
    ]
    print("Goals: " + ", ".join(f"{name} {'met' if ok else 'NOT met'}" for name, ok in verdicts))


if __name__ == "__main__":
    main()
