"""What a screen reader is given, read from headless Chromium's accessibility tree."""

import re

import pytest

from ipgsite.ipg import languages
from ipgsite.ipg.models import Paragraph

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def first_line(locator):
    """The first line of an element's accessibility tree, as Playwright writes it (`- text: English C.`)."""
    return locator.aria_snapshot().splitlines()[0]


def assert_each_text_is_named(page, number, codes):
    keys = list(Paragraph.objects.filter(section__number=number).order_by("order").values_list("key", flat=True))
    assert keys
    for key in keys:
        texts = page.locator(f"[id='{key}'] > .text")
        assert texts.count() == len(codes)
        for i, code in enumerate(codes):
            name = languages.name(code)
            line = first_line(texts.nth(i))
            # The language's name comes first, before the example letter and the paragraph (a bullet's • may precede it).
            assert re.match(rf"- text: (• )?{re.escape(name)}( |$)", line), f"#{key} column {i + 1}: {line!r}"
            # The name is in its own language: the text's, or its own `lang` where the text is shown in another.
            name_lang = texts.nth(i).locator(".column-name").evaluate("n => n.closest('[lang]').lang")
            assert name_lang == languages.html_lang(code)


@pytest.mark.parametrize(
    "url,number,codes",
    [
        ("/en/ipg/2.3/?langs=en,zh-hans,ja", "2.3", ["en", "zh-hans", "ja"]),
        # Chinese is missing for several paragraphs of 2.4: the missing text is named too.
        ("/zh-hans/ipg/2.4/?langs=zh-hans,en", "2.4", ["zh-hans", "en"]),
    ],
)
def test_side_by_side_each_text_is_announced_with_its_language(live_ipg, new_page, url, number, codes):
    page = new_page(DESKTOP)
    page.goto(live_ipg.url + url)
    # For the eye, the columns are named once, in the sticky heads, which a screen reader skips …
    heads = page.locator(".column-heads")
    assert heads.is_visible() and heads.get_attribute("aria-hidden") == "true"
    assert heads.locator("span").all_text_contents() == [languages.name(code) for code in codes]
    # … and the names inside the texts take no room on the screen …
    for box in [page.locator(".column-name").nth(i).bounding_box() for i in range(3)]:
        assert box is None or (box["width"] <= 1 and box["height"] <= 1)
    # … but each text begins with its language's name in the accessibility tree.
    assert_each_text_is_named(page, number, codes)


def test_on_a_phone_the_names_are_visible_captions_and_nothing_scrolls_sideways(live_ipg, new_page):
    page = new_page(PHONE)
    page.goto(live_ipg.url + "/en/ipg/2.3/?langs=en,zh-hans,ja")
    assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0
    assert not page.locator(".column-heads").is_visible()
    names = page.locator("#example-c > .text > .column-name")
    assert names.all_text_contents() == ["English", "简体中文", "日本語"]
    for i in range(3):
        box = names.nth(i).bounding_box()
        assert box["height"] > 8 and box["width"] > 8
    assert_each_text_is_named(page, "2.3", ["en", "zh-hans", "ja"])


def test_one_language_has_no_column_names(live_ipg, new_page):
    page = new_page(DESKTOP)
    page.goto(live_ipg.url + "/ja/ipg/2.3/")
    assert page.locator(".column-name").count() == 0
    assert first_line(page.locator("#example-c > .text")) == "- text: C."
