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
