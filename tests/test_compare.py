"""The compare view: a reader's choice of languages, side by side, kept in the URL and a cookie."""

import pytest

from ipgsite.ipg.models import Paragraph
from pages import parse

THREE = "/en/ipg/2.3/?langs=en,zh-hans,ja"


def cells(html, key):
    """(missing?, lang, text) of each language cell of one paragraph's row."""
    row = parse(html).by_id(key)
    return [("missing" in c.classes, c.attrs["lang"], c.text()) for c in row.children_with("text")]


def test_three_languages_side_by_side_one_row_per_key(client, ipg):
    html = client.get(THREE).content.decode()
    for paragraph in Paragraph.objects.filter(section__number="2.3"):
        assert html.count(f'id="{paragraph.key}"') == 1
        found = cells(html, paragraph.key)
        assert [lang for _missing, lang, _text in found] == ["en", "zh-Hans", "ja"]
        assert not any(missing for missing, _lang, _text in found)
    assert "columns-3" in html


def test_the_readers_order_is_kept(client, ipg):
    html = client.get("/en/ipg/2.3/?langs=ja,en").content.decode()
    assert [lang for _m, lang, _t in cells(html, "example-c")] == ["ja", "en"]
    assert "columns-2" in html


def test_a_missing_translation_shows_as_missing_naming_who_has_it_never_english(client, ipg):
    html = client.get("/en/ipg/2.4/?langs=en,zh-hans,ja").content.decode()
    missing, lang, text = cells(html, "remedy-1")[1]
    assert missing and "Available in: English." in text
    assert "too many cards" not in text
    missing, lang, text = cells(html, "example-a")[2]
    assert missing and "Available in: English, Simplified Chinese." in text
    assert "eight cards" not in text and "八张" not in text


def choose(client, url, *langs):
    """Submit the compare form of `url`'s page as a reader would: one `langs` per column, "" for none."""
    html = parse(client.get(url).content)
    assert len(html.find("form", class_="compare").find_all("select")) == 3
    return client.get(url, {"langs": [*langs, *[""] * (3 - len(langs))]})


def test_the_choice_is_remembered_from_page_to_page(client, ipg):
    response = choose(client, "/en/ipg/2.3/", "zh-hans", "ja")
    assert response.status_code == 302 and response["Location"] == "/en/ipg/2.3/?langs=zh-hans,ja"
    assert response.cookies["ipg_langs"].value == "zh-hans,ja"
    response = client.get("/en/ipg/2.4/")
    assert response.status_code == 302 and response["Location"] == "/en/ipg/2.4/?langs=zh-hans,ja"
    html = client.get("/en/ipg/2.4/?langs=zh-hans,ja").content.decode()
    assert 'href="/en/ipg/2.5/?langs=zh-hans,ja"' in html


def test_a_compare_link_shows_its_languages_without_changing_the_readers_choice(client, ipg):
    """A shared page every reader gets alike (a shared cache keeps one copy): it sets no cookie."""
    response = client.get("/en/ipg/2.3/?langs=zh-hans,ja")
    assert response.status_code == 200 and not response.cookies
    assert client.get("/en/ipg/2.4/").status_code == 200
    choose(client, "/en/ipg/2.3/", "en", "ja")
    assert not client.get("/en/ipg/2.3/?langs=zh-hans,ja").cookies
    assert client.get("/en/ipg/2.4/")["Location"] == "/en/ipg/2.4/?langs=en,ja"


def test_choosing_one_language_forgets_the_comparison(client, ipg):
    choose(client, "/en/ipg/2.3/", "en", "ja")
    response = choose(client, "/en/ipg/2.3/?langs=en,ja", "en")
    assert response.status_code == 302 and response["Location"] == "/en/ipg/2.3/?langs=en"
    assert response.cookies["ipg_langs"].value == ""
    assert client.get("/en/ipg/2.4/").status_code == 200


def test_a_choice_naming_no_known_language_leaves_the_remembered_one(client, ipg):
    choose(client, "/en/ipg/2.3/", "en", "ja")
    response = client.get("/en/ipg/2.3/?langs=fr")
    assert response.status_code == 302 and "ipg_langs" not in response.cookies
    assert client.get("/en/ipg/2.4/")["Location"] == "/en/ipg/2.4/?langs=en,ja"


def test_one_other_language_under_this_interface(client, ipg):
    html = client.get("/en/ipg/2.3/?langs=ja").content.decode()
    assert cells(html, "example-c")[0][1] == "ja"
    assert '<html lang="en">' in html


@pytest.mark.parametrize(
    "query,normalized",
    [
        ("langs=fr", "/en/ipg/2.3/"),
        ("langs=", "/en/ipg/2.3/"),
        ("langs=en,en", "/en/ipg/2.3/?langs=en"),
        ("langs=ja,JA,ja", "/en/ipg/2.3/?langs=ja"),
        ("langs=EN,Zh-Hans", "/en/ipg/2.3/?langs=en,zh-hans"),
        ("langs=en,zh-hans,ja,de,en", "/en/ipg/2.3/?langs=en,zh-hans,ja"),
        ("langs=zh,jp", "/en/ipg/2.3/?langs=zh-hans,ja"),
        ("langs=en&langs=ja&langs=", "/en/ipg/2.3/?langs=en,ja"),
        ("langs=%00%ff%fe,ja", "/en/ipg/2.3/?langs=ja"),
        ("langs=" + "en," * 500, "/en/ipg/2.3/?langs=en"),
    ],
)
def test_bad_language_choices_redirect_to_the_normalized_url(client, ipg, query, normalized):
    response = client.get(f"/en/ipg/2.3/?{query}")
    assert response.status_code == 302
    assert response["Location"] == normalized
    assert client.get(normalized).status_code == 200


def test_the_compare_form_works_without_javascript(client, ipg):
    # The form submits one `langs` per column; the server folds them into the shareable URL.
    response = client.get("/ja/ipg/2.3/", {"langs": ["ja", "", "en"]})
    assert response["Location"] == "/ja/ipg/2.3/?langs=ja,en"


def test_a_parameter_the_page_does_not_read_is_left_out_of_normalization(client, ipg):
    """The page never sees it (ipgsite/caching/queries.py): the normalized URL is the page's own, which the cache
    holds (a shared link's utm_source stays in the reader's address bar only until this redirect)."""
    response = client.get("/en/ipg/2.3/?utm_source=chat&langs=EN,JA&release=2024-09-23")
    assert response["Location"] == "/en/ipg/2.3/?langs=en,ja&release=2024-09-23"


def compare_control(client, url):
    html = parse(client.get(url).content)
    button = html.find("button", class_="compare-button")
    choices = [
        (a.text(), a.attrs["href"], a.attrs.get("aria-current"))
        for a in html.find("p", class_="compare-pairs").find_all("a")
    ]
    return button, choices


def test_one_tap_choices_name_the_pairs_and_the_current_choice(client, ipg):
    button, choices = compare_control(client, "/ja/ipg/2.3/")
    assert choices == [
        ("日本語", "?langs=ja&langs=", "true"),
        ("日本語 + English", "?langs=ja&langs=en", None),
        ("日本語 + 简体中文", "?langs=ja&langs=zh-hans", None),
    ]
    assert button.text() == "⇄ 並べて表示"
    button, choices = compare_control(client, "/ja/ipg/2.3/?langs=ja,en")
    assert [current for _, _, current in choices] == [None, "true", None]
    # The button says what is compared, each other language's name in its own `lang`.
    assert button.text(skip=["visually-hidden"]) == "⇄ 日本語 + English"
    assert [s.attrs["lang"] for s in button.find_all("span") if "lang" in s.attrs] == ["en"]  # ja: the page's own
    # Another choice (three languages, or another order) is the selects': no pair is current.
    _, choices = compare_control(client, "/ja/ipg/2.3/?langs=en,ja")
    assert [current for _, _, current in choices] == [None, None, None]
    # An earlier release's page keeps its release in every choice.
    html = parse(client.get("/en/ipg/2.3/?release=2024-09-23").content)
    assert all("release=2024-09-23" in a.attrs["href"] for a in html.find("p", class_="compare-pairs").find_all("a"))


def test_one_tap_remembers_a_pair_and_the_one_language_choice_forgets_it(client, ipg):
    response = client.get("/ja/ipg/2.3/?langs=ja&langs=en")
    assert response.status_code == 302 and response["Location"] == "/ja/ipg/2.3/?langs=ja,en"
    assert response.cookies["ipg_langs"].value == "ja,en"
    assert client.get("/ja/ipg/2.4/")["Location"] == "/ja/ipg/2.4/?langs=ja,en"
    # Back to one language in one tap, no select blanked: later sections are no longer redirected.
    response = client.get("/ja/ipg/2.4/?langs=ja&langs=")
    assert response.status_code == 302 and response["Location"] == "/ja/ipg/2.4/?langs=ja"
    assert response.cookies["ipg_langs"].value == ""
    assert client.get("/ja/ipg/2.5/").status_code == 200
    # On a shared paragraph's page, a tap shows what it names and remembers nothing.
    response = client.get("/ja/ipg/2.3/example-c/?langs=ja&langs=en")
    assert response["Location"] == "/ja/ipg/2.3/example-c/?langs=ja,en" and "ipg_langs" not in response.cookies
