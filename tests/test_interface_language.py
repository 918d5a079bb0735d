"""The interface in three languages: chosen by URL prefix, then cookie, then Accept-Language."""

import pytest

from pages import parse


@pytest.mark.parametrize(
    "code,definition,examples,warning,show_notes",
    [
        ("en", "Definition", "Examples", "Warning", "Show all notes"),
        ("zh-hans", "定义", "范例", "警告", "展开全部注释"),
        ("ja", "定義", "例", "警告", "注釈をすべて表示"),
    ],
)
def test_part_headings_penalties_and_buttons_are_translated(
    client, ipg, code, definition, examples, warning, show_notes
):
    page = parse(client.get(f"/{code}/ipg/2.3/").content)
    assert page.find("h2", id="part-definition-title").text() == definition
    assert page.find("h2", id="part-example-title").text() == examples
    assert page.find("span", class_="penalty-warning").text() == warning
    assert page.find("button", class_="toggle-notes").text() == show_notes


def test_penalty_names_on_the_quick_reference(client, ipg):
    page = parse(client.get("/ja/penalties/").content)
    labels = {badge.text() for badge in page.find_all("span", class_="penalty")}
    assert {"警告", "ゲームの敗北", "マッチの敗北", "失格", "懲罰なし"} <= labels
    page = parse(client.get("/zh-hans/penalties/?penalty=game-loss").content)
    assert [a.text() for a in page.find("table").find_all("a")] == [
        "3.1 Tournament Error — Tardiness EN",
        "3.4 Tournament Error — Decklist Problem EN",
    ]


def test_no_prefix_redirects_by_cookie_then_accept_language(client, ipg):
    assert client.get("/ipg/2.3/")["Location"] == "/en/ipg/2.3/"
    assert client.get("/ipg/2.3/", HTTP_ACCEPT_LANGUAGE="ja,en;q=0.5")["Location"] == "/ja/ipg/2.3/"
    assert client.get("/ipg/2.3/", HTTP_ACCEPT_LANGUAGE="zh-CN,zh;q=0.9")["Location"] == "/zh-hans/ipg/2.3/"
    client.cookies["django_language"] = "zh-hans"
    assert client.get("/ipg/2.3/", HTTP_ACCEPT_LANGUAGE="ja")["Location"] == "/zh-hans/ipg/2.3/"
    assert client.get("/ipg/2.3/?langs=en,ja")["Location"] == "/zh-hans/ipg/2.3/?langs=en,ja"


@pytest.mark.parametrize(
    "header",
    ["", ";;;,,,", "q=0.5", "ja;q=abc", "x" * 5000, "zh-Hans-CN-u-ca-chinese;q=1.5", "*", "en-US,\x00", "日本語"],
)
def test_a_malformed_accept_language_is_no_error(client, ipg, header):
    response = client.get("/ipg/2.3/", HTTP_ACCEPT_LANGUAGE=header)
    assert response.status_code == 302
    assert client.get(response["Location"]).status_code == 200


def test_switching_language_keeps_the_section_and_the_compare_choice(client, ipg):
    response = client.get("/lang/ja/", {"next": "/en/ipg/2.3/?langs=en,ja"})
    assert response.status_code == 302
    assert response["Location"] == "/ja/ipg/2.3/?langs=en,ja"
    assert response.cookies["django_language"].value == "ja"
    assert client.get("/ipg/2.4/")["Location"] == "/ja/ipg/2.4/"


def test_the_switcher_links_carry_the_current_page(client, ipg):
    page = parse(client.get("/en/ipg/2.3/?langs=en,ja").content)
    links = {a.attrs["hreflang"]: a.attrs["href"] for a in page.find_all("a", class_="switch-language")}
    assert links == {
        "zh-Hans": "/lang/zh-hans/?next=/en/ipg/2.3/%3Flangs%3Den%2Cja",
        "ja": "/lang/ja/?next=/en/ipg/2.3/%3Flangs%3Den%2Cja",
    }


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x", "javascript:alert(1)"])
def test_switching_never_leaves_the_site(client, ipg, target):
    response = client.get("/lang/zh-hans/", {"next": target})
    assert response["Location"] == "/zh-hans/"


def test_an_unknown_interface_language_is_a_404(client, ipg):
    assert client.get("/lang/fr/?next=/en/").status_code == 404
