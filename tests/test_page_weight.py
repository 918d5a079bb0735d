"""Section 2.3 in three languages stays light on a venue's Wi-Fi."""

import gzip
import re

from django.contrib.staticfiles import finders

BUDGET = 40 * 1024


def test_three_language_compare_page_is_under_40_kb_compressed(client, ipg):
    html = client.get("/en/ipg/2.3/?langs=en,zh-hans,ja").content
    # Every stylesheet and script of the site's own that the page loads.
    names = re.findall(r'<(?:link rel="stylesheet" href|script src)="/static/([^"]+)"', html.decode())
    assert {"css/site.css", "js/site.js", "js/table.js"} <= set(names)
    assets = [open(finders.find(name), "rb").read() for name in names]
    sizes = [len(gzip.compress(data, compresslevel=6)) for data in [html, *assets]]
    assert sum(sizes) < BUDGET, f"html+css+js = {sizes} bytes gzipped"
