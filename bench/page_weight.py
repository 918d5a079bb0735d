"""Bytes on the wire for section 2.3 compared in three languages, against its bare text.

Prints the compressed size (gzip level 6, and brotli when installed) of the page's HTML, CSS and JS
together, next to the compressed size of the section's bare text in the same three languages,
and their ratio. Run: `make bench-page-weight`.
"""

import gzip
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

from django.contrib.staticfiles import finders  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from ipgsite.ipg.models import Note, Paragraph  # noqa: E402

URL = "/en/ipg/2.3/?langs=en,zh-hans,ja"
LIMIT = 40 * 1024


def compressors():
    yield "gzip", lambda data: gzip.compress(data, compresslevel=6)
    try:
        import brotli
    except ImportError:
        return
    yield "brotli", lambda data: brotli.compress(data, quality=5)


def static_files(html):
    """The site's own stylesheets and scripts the page loads, as static names (css/site.css, js/table.js…)."""
    return re.findall(rb'<(?:link rel="stylesheet" href|script src)="/static/([^"]+)"', html)


def page_parts(client):
    html = client.get(URL, HTTP_HOST="127.0.0.1").content
    parts = {"html": html}
    for name in static_files(html):
        name = name.decode()
        parts[name] = Path(finders.find(name)).read_bytes()
    return parts


def bare_text():
    texts = []
    for paragraph in Paragraph.objects.filter(section__number="2.3").order_by("order"):
        texts += [paragraph.text_en, paragraph.text_zh_hans, paragraph.text_ja]
    for note in Note.objects.filter(paragraph__section__number="2.3"):
        texts += [note.body_ja]
    return "\n\n".join(t for t in texts if t).encode()


def main():
    call_command("migrate", verbosity=0)
    call_command("loadcontent", verbosity=0)
    parts = page_parts(Client())
    text = bare_text()
    print(f"Section 2.3, {URL}")
    print(f"{'':10} {'page (html+css+js)':>20} {'bare text':>12} {'ratio':>7}")
    raw = sum(len(v) for v in parts.values())
    print(f"{'raw':10} {raw:>20,} {len(text):>12,} {raw / len(text):>7.2f}")
    worst = 0
    for name, compress in compressors():
        size = sum(len(compress(v)) for v in parts.values())
        bare = len(compress(text))
        worst = max(worst, size)
        print(f"{name:10} {size:>20,} {bare:>12,} {size / bare:>7.2f}")
        for part, data in parts.items():
            print(f"  {part:22} {len(compress(data)):>8,} bytes")
    verdict = "under" if worst < LIMIT else "OVER"
    print(f"Compressed page weight {worst:,} bytes: {verdict} the {LIMIT:,}-byte budget.")


if __name__ == "__main__":
    main()
