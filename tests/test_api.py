"""The machine-readable IPG: /api/ipg/ and /api/ipg/<number>/."""


def test_outline_json_lists_every_section_with_penalty_and_text_status(client, ipg):
    response = client.get("/api/ipg/")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    data = response.json()
    assert data["languages"] == ["en", "zh-hans", "ja"]
    sections = {s["number"]: s for c in data["chapters"] for s in c["sections"]}
    assert len(sections) == 30
    assert sections["2.3"]["penalty"] == "warning" and sections["2.3"]["has_text"] is True
    assert sections["3.2"]["penalty"] == "match-loss" and sections["3.2"]["has_text"] is False
    assert sections["1.3"]["penalty"] is None
    assert sections["2.2"]["title"] == {
        "en": "Game Play Error — Looking at Extra Cards",
        "zh-hans": "游戏行动失误~额外看牌",
        "ja": "ゲーム上の誤り ― 過剰なカードを見た",
    }
    assert sections["2.3"]["pages"]["ja"] == "http://testserver/ja/ipg/2.3/"
    assert sections["2.3"]["url"] == "http://testserver/api/ipg/2.3/"


def test_section_json_has_aligned_paragraphs_by_key_in_every_language_with_notes(client, ipg):
    data = client.get("/api/ipg/2.3/").json()
    keys = [p["key"] for p in data["paragraphs"]]
    assert keys[:3] == ["definition-1", "definition-2", "example-a"] and len(keys) == 19
    example_c = data["paragraphs"][keys.index("example-c")]
    assert example_c["part"] == "example"
    assert "Dark Confidant" in example_c["text"]["en"]
    assert "黑暗亲信" in example_c["text"]["zh-hans"]
    assert "闇の腹心" in example_c["text"]["ja"]
    assert example_c["missing"] == []
    assert example_c["notes"] == [
        {
            "language": "ja",
            "source": "Japanese annotated edition",
            "body": {"en": None, "zh-hans": None, "ja": example_c["notes"][0]["body"]["ja"]},
        }
    ]
    assert example_c["notes"][0]["body"]["ja"].startswith("例(C)は")


def test_missing_translations_are_null_and_listed(client, ipg):
    data = client.get("/api/ipg/2.4/").json()
    remedy = next(p for p in data["paragraphs"] if p["key"] == "remedy-1")
    assert remedy["text"]["zh-hans"] is None and remedy["text"]["ja"] is None
    assert remedy["missing"] == ["zh-hans", "ja"]
    assert data["languages"] == ["en", "zh-hans"]


def test_a_stub_section_has_no_paragraphs(client, ipg):
    data = client.get("/api/ipg/4.8/").json()
    assert data["paragraphs"] == [] and data["has_text"] is False
    assert data["title"]["ja"] == "非紳士的行為 ― 故意の違反"


def test_an_unknown_section_is_a_json_404(client, ipg):
    response = client.get("/api/ipg/7.7/")
    assert response.status_code == 404
    assert response.json() == {"error": "There is no section '7.7' in the IPG."}


def test_a_malformed_section_number_is_a_404(client, ipg):
    assert client.get("/api/ipg/%00/").status_code == 404
    assert client.get("/api/ipg/2.3%27--/").status_code == 404
