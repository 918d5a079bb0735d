"""The translate page flags a translation that lacks the termbase's name for a term its source uses, and offers the
name; the dashboard counts the flags per section and language."""

from edits import write
from ipgsite.ipg.models import Section
from ipgsite.terms.flags import flag_counts
from pages import parse
from people import client_for, editor, translate_url, translator


def flags_of(client, number, code, key, source="en"):
    response = client.get(translate_url(number, code) + f"?from={source}")
    assert response.status_code == 200
    row = parse(response.content.decode()).by_id(key)
    found = row.find("ul", class_="tr-term-flags")
    if found is None:
        return []
    return [
        (
            li.find("span").text(),
            li.find("span").attrs["lang"],
            li.find("strong").text(),
            li.find("strong").attrs["lang"],
        )
        for li in found.find_all("li")
    ]


def test_a_translation_lacking_the_termbases_name_is_flagged_and_offered_the_name(ipg):
    client = client_for(translator("zh-hans"))
    # 2.4 example-c: "A player keeps her hand, …" / "牌手保留起手,…" (起手, the opening hand, is none of hand's forms)
    assert flags_of(client, "2.4", "zh-hans", "example-c") == [("hand", "en", "手牌", "zh-Hans")]
    # the near miss: 2.3 example-c's "置入手中" is a form of hand the seeds attest (手中), not a lack of it
    assert flags_of(client, "2.3", "zh-hans", "example-c") == []


def test_a_translation_using_the_name_is_not_flagged(ipg):
    client = client_for(translator("ja"))
    # 2.3 example-b: "scries" / "占術": the Japanese uses the termbase's name
    assert flags_of(client, "2.3", "ja", "example-b") == []
    write("2.3", "example-c", "zh-hans", "牌手结算了黑暗亲信的触发,但在将牌张置入手牌之前忘了展示。")
    assert flags_of(client_for(translator("zh-hans", "zh2")), "2.3", "zh-hans", "example-c") == []


def test_a_missing_translation_is_not_flagged(ipg):
    client = client_for(translator("zh-hans"))
    assert flags_of(client, "2.4", "zh-hans", "philosophy-2") == []  # no Chinese yet: it is missing, not wrong


def test_the_flag_follows_the_source_shown(ipg):
    client = client_for(translator("ja"))
    # From the Chinese of 2.3 example-b ("占卜"), the Japanese 占術 is there: nothing to flag either way.
    assert flags_of(client, "2.3", "ja", "example-b", source="zh-hans") == []
    write("2.3", "example-b", "ja", "プレイヤーが2枚のカードを見た。")  # a text without 占術 (test text)
    flagged = flags_of(client, "2.3", "ja", "example-b", source="zh-hans")
    assert flagged == [("占卜", "zh-Hans", "占術", "ja")]


def test_the_dashboard_counts_the_flags_per_section_and_language(ipg):
    response = client_for(editor()).get("/admin/translate/")
    root = parse(response.content.decode())
    counts = {
        (a.attrs["href"].split("/")[3], a.attrs["href"].split("/")[4]): a.text()
        for a in root.find_all("a")
        if a.parent.tag == "p" and "tr-term-flag-count" in a.parent.classes
    }
    # Not philosophy-5: its "with one hand" is a player's own hand, which the Chinese rightly calls 一只手.
    # Nor example-c, remedy-4, upgrade-1: their 手中 and 手上 are forms of hand the seeds attest.
    assert counts[("2.3", "zh-hans")] == "1 term flag"
    assert counts[("2.4", "zh-hans")] == "1 term flag"
    assert ("2.3", "en") not in counts  # English is the source
    write("2.3", "example-c", "zh-hans", "牌手结算了黑暗亲信的触发,但忘了展示那张牌。")  # no hand at all (test text)
    section = Section.objects.get(number="2.3")
    assert flag_counts()[section.pk, "zh-hans"] == 2
