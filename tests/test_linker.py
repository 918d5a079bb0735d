"""/linker.js, which any site includes, and the data it reads from /api/linker/: small, and named from the content."""

import gzip

from ipgsite.editing import writing

BUDGET = 6 * 1024


def test_the_linker_is_a_script_of_at_most_6_kb_gzip(client, ipg):
    response = client.get("/linker.js", HTTP_ACCEPT_ENCODING="gzip")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/javascript")
    assert response["Content-Encoding"] == "gzip"
    assert len(response.content) <= BUDGET, f"{len(response.content)} bytes gzip"
    source = gzip.decompress(response.content).decode()
    assert "/api/linker/" in source and 'credentials: "omit"' in source
    # The names come from the API, not from the script.
    for name in ("HCE", "Hidden Card Error", "非公开牌张失误", "違反処置指針"):
        assert name not in source


def test_the_linker_data_names_every_section_by_its_titles_and_aliases(client, ipg):
    data = client.get("/api/linker/").json()
    sections = {s["number"]: s for s in data["sections"]}
    assert len(sections) == 30
    hce = sections["2.3"]
    assert {
        "HCE",
        "Hidden Card Error",
        "非公开牌张失误",
        "非公開カードに関する誤り",
        "Game Play Error—Hidden Card Error",
    } <= set(hce["names"])
    assert "游戏行动失误—额外抓牌" in hce["names"]  # a former name, its dash made uniform
    assert hce["examples"][:3] == ["example-a", "example-b", "example-c"] and hce["lead"] == "definition-1"
    assert sections["4.8"]["lead"] is None and sections["4.8"]["examples"] == []
    assert {"IPG", "Infraction Procedure Guide", "違反処置指針", "违规处理指南"} <= set(data["document"])
    assert data["messages"]["ja"]["missing"] == "%(language)sには未翻訳です。"
    assert data["messages"]["zh-hans"]["penalties"]["warning"] == "警告"


def test_a_name_two_sections_share_is_left_out(client, ipg):
    from ipgsite.ipg.models import Alias

    with writing.batch(writing.CONTENT_FILES):
        writing.save_structure(
            Alias(section=ipg.get(number="2.4")), {"language": "en", "name": "Shared Name"}, by=writing.CONTENT_FILES
        )
        writing.save_structure(
            Alias(section=ipg.get(number="2.5")), {"language": "ja", "name": "Shared Name"}, by=writing.CONTENT_FILES
        )
    names = [n for s in client.get("/api/linker/").json()["sections"] for n in s["names"]]
    assert "Shared Name" not in names and "MPE" in names


def test_a_new_alias_reaches_the_linker_at_once(client, ipg):
    from ipgsite.ipg.models import Alias

    client.get("/api/linker/")  # cached
    writing.save_structure(
        Alias(section=ipg.get(number="2.3")), {"language": "en", "name": "HCErr"}, by=writing.CONTENT_FILES
    )
    sections = {s["number"]: s for s in client.get("/api/linker/").json()["sections"]}
    assert "HCErr" in sections["2.3"]["names"]


def test_the_linkers_messages_offer_the_readers_languages_in_each_language(client, ipg):
    messages = client.get("/api/linker/").json()["messages"]
    assert messages["en"]["mine"] == "Show in the languages I read side by side on the IPG site"
    assert messages["ja"]["mine"] == "IPGサイトで並べて表示している言語で表示"
    assert messages["zh-hans"]["none"] == "您尚未在IPG网站上选择多语对照的语言。"


def test_the_languages_window_is_the_same_for_everyone_and_answers_only_the_origin_named(client, ipg):
    """/linker/languages/ is what the linker opens, in a window of its own, when a reader asks for their languages:
    its script reads the remembered choice in the browser and posts it to `origin`; the server reads no cookie."""
    url = "/linker/languages/?lang=ja&origin=https://blog.example:8443"
    plain = client.get(url)
    assert plain.status_code == 200 and plain["Content-Type"].startswith("text/html")
    html = plain.content.decode()
    assert '<html lang="ja">' in html and 'data-origin="https://blog.example:8443"' in html
    assert 'data-cookie="ipg_langs"' in html and 'data-codes="en,zh-hans,ja"' in html
    assert "並べて表示" in html and "/static/embedding/languages.js" in html
    assert "<script>" not in html and "style=" not in html  # the site's Content-Security-Policy allows neither
    # The window keeps its opener (the site's pages cut it: same-origin), and is still never framed.
    assert plain["Cross-Origin-Opener-Policy"] == "unsafe-none" and plain["X-Frame-Options"] == "DENY"
    client.cookies["ipg_langs"] = "en,ja"
    assert client.get(url).content == plain.content and not plain.cookies

    for origin in ["javascript:alert(1)", "https://blog.example/post", 'https://a"b', "*", ""]:
        html = client.get("/linker/languages/", {"lang": "en", "origin": origin}).content.decode()
        assert 'data-origin=""' in html, origin
        assert "A site that links the IPG with this site's linker opens this window" in html
    assert '<html lang="en">' in client.get("/linker/languages/?lang=xx").content.decode()


def test_the_linker_reads_the_citation_forms_judges_write(client, ipg):
    """ "IPG 2.3, Example C" linked the section: the data names "ex." and "example" beside 例 and 范例, and the script
    lets a comma (, ，、) stand before them."""
    data = client.get("/api/linker/").json()
    assert {"Example", "example", "ex.", "Ex.", "例", "范例"} <= set(data["examples"])
    source = client.get("/linker.js").content.decode()
    assert '"\\\\s*[,，、]?\\\\s*" + any(data.examples)' in source


def test_the_linker_names_each_language_in_the_language_of_the_message(client, ipg):
    """W2: "Not yet translated into English" on a Japanese blog reads 英語には未翻訳です, never Englishには…"""
    messages = client.get("/api/linker/").json()["messages"]
    assert messages["ja"]["languages"] == {"en": "英語", "zh-hans": "簡体字中国語", "ja": "日本語"}
    assert messages["zh-hans"]["languages"] == {"en": "英文", "zh-hans": "简体中文", "ja": "日文"}
    assert messages["en"]["languages"] == {"en": "English", "zh-hans": "Simplified Chinese", "ja": "Japanese"}
