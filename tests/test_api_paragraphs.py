"""The JSON API for bots and other sites: one paragraph (/api/ipg/<n>/<key>/), and sections found by name."""

import pytest

from ipgsite.editing import writing


def test_a_paragraph_has_every_language_its_notes_and_its_example_letter(client, ipg):
    response = client.get("/api/ipg/2.3/example-c/")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    data = response.json()
    assert (data["section"], data["key"], data["part"], data["label"]) == ("2.3", "example-c", "example", "C")
    assert "Dark Confidant" in data["text"]["en"] and "黑暗亲信" in data["text"]["zh-hans"]
    assert "闇の腹心" in data["text"]["ja"]
    assert data["html"]["en"].startswith("<p>") and "Dark Confidant" in data["html"]["en"]
    assert data["missing"] == [] and data["release"] is None and data["penalty"] == "warning"
    assert data["title"]["zh-hans"] == "非公开牌张失误"
    assert [n["language"] for n in data["notes"]] == ["ja"] and data["notes"][0]["body"]["ja"].startswith("例(C)は")
    assert data["notes"][0]["body"]["en"] is None
    assert data["pages"]["ja"] == "http://testserver/ja/ipg/2.3/example-c/"
    assert data["citation"]["en"] == "IPG 2.3 Example C (2024-09-23)"
    assert data["url"] == "http://testserver/api/ipg/2.3/example-c/"


def test_a_missing_translation_is_null_never_english(client, ipg):
    data = client.get("/api/ipg/2.4/remedy-1/").json()
    assert data["text"]["ja"] is None and data["html"]["ja"] is None and data["text"]["zh-hans"] is None
    assert data["missing"] == ["zh-hans", "ja"] and data["text"]["en"]


def test_lag_marks_name_the_translations_that_follow_an_older_english(client, ipg):
    # content/sections/2.3.toml: upgrade-1's Chinese and Japanese follow an English that named only morph.
    lagging = client.get("/api/ipg/2.3/upgrade-1/").json()
    assert lagging["lags"] == {
        "zh-hans": {"follows": "unknown", "changes": None},
        "ja": {"follows": "unknown", "changes": None},
    }
    assert client.get("/api/ipg/2.3/example-c/").json()["lags"] == {}


def test_a_lag_after_an_english_edit_names_the_release_and_the_changes(client, ipg):
    paragraph = ipg.get(number="2.3").paragraphs.get(key="example-c")
    english = paragraph.text_en + " Then the game continues."
    writing.write_text(paragraph, "en", english, by=writing.CONTENT_FILES, base_revision=writing.LATEST)
    lags = client.get("/api/ipg/2.3/example-c/").json()["lags"]
    assert set(lags) == {"zh-hans", "ja"}
    assert lags["ja"]["follows"] == "2024-09-23" and "<ins>" in lags["ja"]["changes"]


def test_release_gives_the_paragraph_as_that_release_held_it(client, ipg):
    paragraph = ipg.get(number="2.3").paragraphs.get(key="example-c")
    before = paragraph.text_en
    writing.write_text(paragraph, "en", "A rewritten example.", by=writing.CONTENT_FILES, base_revision=writing.LATEST)
    assert client.get("/api/ipg/2.3/example-c/").json()["text"]["en"] == "A rewritten example."
    held = client.get("/api/ipg/2.3/example-c/?release=2024-09-23").json()
    assert held["text"]["en"] == before and held["release"] == "2024-09-23"
    # the translations followed the English the release froze beside them: no lag in that release
    assert held["lags"] == {} and held["notes"][0]["lags"] == {}
    assert held["pages"]["en"] == "http://testserver/en/ipg/2.3/example-c/?release=2024-09-23"
    assert held["citation"]["ja"] == "IPG 2.3節 例C（2024-09-23の版）"


@pytest.mark.parametrize("release", ["2020-01-01", "2024-13-45", "yesterday", ""])
def test_a_release_that_does_not_exist_is_a_json_404(client, ipg, release):
    for url in (f"/api/ipg/2.3/example-c/?release={release}", f"/api/ipg/2.3/?release={release}"):
        response = client.get(url)
        assert response.status_code == 404 and response["Content-Type"] == "application/json"
        assert response.json() == {"error": "There is no release of that date with this section."}


def test_an_unknown_paragraph_or_section_is_a_json_404(client, ipg):
    response = client.get("/api/ipg/2.3/example-z/")
    assert response.status_code == 404 and response.json() == {"error": "Section 2.3 has no paragraph 'example-z'."}
    assert client.get("/api/ipg/7.7/example-a/").json() == {"error": "There is no section '7.7' in the IPG."}
    # Not a key at all: no route takes it.
    assert client.get("/api/ipg/2.3/Example%20C/").status_code == 404


@pytest.mark.parametrize(
    "name",
    [
        "hce",
        "HCE",
        "Hidden Card Error",
        "hidden card error",
        "非公开牌张失误",
        "非公開牌張失誤",
        "非公開カードに関する誤り",
        "Game Play Error - Hidden Card Error",
        "游戏行动失误~额外抓牌",
    ],
)
def test_a_section_is_found_by_name_with_a_redirect_to_its_number(client, ipg, name):
    response = client.get(f"/api/ipg/{name}/")
    assert response.status_code == 302 and response["Location"] == "/api/ipg/2.3/"
    assert response.json() == {"section": "2.3", "url": "http://testserver/api/ipg/2.3/"}
    followed = client.get(f"/api/ipg/{name}/", follow=True)
    assert followed.status_code == 200 and followed.json()["number"] == "2.3"


def test_a_name_keeps_the_release_and_a_paragraph_key(client, ipg):
    response = client.get("/api/ipg/hce/?release=2024-09-23")
    assert response["Location"] == "/api/ipg/2.3/?release=2024-09-23"
    response = client.get("/api/ipg/mpe/definition-1/")
    assert response.status_code == 302 and response["Location"] == "/api/ipg/2.4/definition-1/"
    assert client.get("/api/ipg/mpe/definition-1/", follow=True).json()["text"]["en"]


@pytest.mark.parametrize("name", ["hc", "Hidden Card", "Black Lotus", "%00", "2.3.4", "' OR 1=1 --"])
def test_a_name_no_section_has_is_a_json_404(client, ipg, name):
    response = client.get(f"/api/ipg/{name}/")
    assert response.status_code == 404
    assert "No section of the IPG is named" in response.json()["error"]


def test_the_api_is_read_only(client, ipg):
    for url in (
        "/api/ipg/",
        "/api/ipg/2.3/",
        "/api/ipg/2.3/example-c/",
        "/api/ipg/hce/",
        "/api/linker/",
        "/api/openapi.json",
        "/api/releases/",
        "/oembed/?url=x",
    ):
        assert client.post(url).status_code == 405, url
        assert client.put(url).status_code == 405, url
