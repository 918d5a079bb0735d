"""Link previews, hreflang alternates and the sitemap."""

import re

import pytest

from pages import parse


def meta(page, prop):
    node = page.find("meta", property=prop) or page.find("meta", name=prop)
    return node.attrs["content"] if node else None


@pytest.mark.parametrize(
    "code,title,start,locale",
    [
        ("en", "2.3 Game Play Error — Hidden Card Error", "A player commits an error in the game", "en_US"),
        ("zh-hans", "2.3 非公开牌张失误", "牌手在游戏中发生失误", "zh_CN"),
        ("ja", "2.3 ゲーム上の誤り ─ 非公開カードに関する誤り", "プレイヤーが、公開されている情報だけから", "ja_JP"),
    ],
)
def test_a_pasted_link_previews_in_the_pages_language(client, ipg, code, title, start, locale):
    page = parse(client.get(f"/{code}/ipg/2.3/").content)
    assert page.find("title").text().startswith(title)
    assert meta(page, "og:title") == title
    assert meta(page, "og:description").startswith(start)
    assert meta(page, "description") == meta(page, "og:description")
    assert len(meta(page, "og:description")) <= 201
    assert meta(page, "og:url") == f"http://testserver/{code}/ipg/2.3/"
    assert meta(page, "og:locale") == locale
    assert meta(page, "og:type") == "article"


def test_every_section_page_lists_its_other_languages(client, ipg):
    page = parse(client.get("/ja/ipg/2.4/").content)
    links = page.find_all("link", rel="alternate")
    alternates = {link.attrs["hreflang"]: link.attrs["href"] for link in links if "hreflang" in link.attrs}
    assert alternates == {
        "en": "http://testserver/en/ipg/2.4/",
        "zh-Hans": "http://testserver/zh-hans/ipg/2.4/",
        "ja": "http://testserver/ja/ipg/2.4/",
    }
    assert page.find("link", rel="canonical").attrs["href"] == "http://testserver/ja/ipg/2.4/"


def test_a_stub_still_describes_itself(client, ipg):
    page = parse(client.get("/en/ipg/4.5/").content)
    assert meta(page, "og:description") == "4.5 Unsporting Conduct — Aggressive Behavior. Disqualification."


def test_the_sitemap_lists_every_section_in_every_language(client, ipg):
    response = client.get("/sitemap.xml")
    assert response.status_code == 200
    xml = response.content.decode()
    locs = re.findall(r"<loc>([^<]+)</loc>", xml)
    # sections, outline and penalties, the quiz, the glossary, the finder, what changed
    assert len(locs) == (30 + 2 + 4) * 3
    for code in ("en", "zh-hans", "ja"):
        assert f"http://testserver/{code}/ipg/2.3/" in locs
        assert f"http://testserver/{code}/penalties/" in locs
        assert f"http://testserver/{code}/quiz/" in locs
        assert f"http://testserver/{code}/finder/" in locs
        assert f"http://testserver/{code}/changes/" in locs
    assert 'hreflang="x-default"' in xml


def alternates_of(page):
    links = page.find_all("link", rel="alternate")
    return {link.attrs["hreflang"]: link.attrs["href"] for link in links if "hreflang" in link.attrs}


@pytest.mark.parametrize("path", ["", "glossary/", "changes/", "changes/2024-09-23/"])
def test_the_outline_glossary_and_changes_pages_list_their_other_languages(client, ipg, path):
    page = parse(client.get(f"/zh-hans/{path}").content)
    assert alternates_of(page) == {
        "en": f"http://testserver/en/{path}",
        "zh-Hans": f"http://testserver/zh-hans/{path}",
        "ja": f"http://testserver/ja/{path}",
    }


def test_a_page_without_language_versions_names_no_alternates(client, ipg):
    assert alternates_of(parse(client.get("/en/search/?q=card").content)) == {}


@pytest.mark.parametrize(
    "path,start",
    [
        ("/en/", "The Infraction Procedure Guide in English, Simplified Chinese and Japanese"),
        ("/ja/", "違反処置指針を英語・簡体字中国語・日本語で"),
        ("/zh-hans/", "违规处理指南的英文、简体中文和日文版本"),
        ("/en/finder/", "Answer what happened, one question at a time"),
        ("/ja/finder/", "何が起きたかを一問ずつ答えていくと"),
        ("/zh-hans/finder/", "逐一回答发生了什么"),
    ],
)
def test_the_outline_and_the_finder_describe_themselves_in_the_pages_language(client, ipg, path, start):
    assert meta(parse(client.get(path).content), "description").startswith(start)
