"""Section 2.3 in three languages stays light on a venue's Wi-Fi."""

import gzip

from django.contrib.staticfiles import finders

BUDGET = 40 * 1024


def test_three_language_compare_page_is_under_40_kb_compressed(client, ipg):
    html = client.get("/en/ipg/2.3/?langs=en,zh-hans,ja").content
    assets = [open(finders.find(name), "rb").read() for name in ("css/site.css", "js/site.js", "js/table.js")]
    sizes = [len(gzip.compress(data, compresslevel=6)) for data in [html, *assets]]
    assert sum(sizes) < BUDGET, f"html+css+js = {sizes} bytes gzipped"
