"""Cross-links: every mention of another section, in any language, is a link to it in the reader's language,
and every section lists what mentions it."""

import pytest
from django.core.management import call_command

from edits import add_note, change, delete, write
from ipgsite.crosslinks.models import Link
from ipgsite.editing import writing
from ipgsite.ipg.models import Alias, Paragraph, Section
from pages import parse

PHONE = {"width": 390, "height": 844}


def page(client, url):
    response = client.get(url)
    assert response.status_code == 200, url
    return parse(response.content)


def xrefs(node):
    """(link text, href) of every cross-link under a node."""
    return [(a.text(), a.attrs["href"]) for a in node.find_all("a", class_="xref")]


def paragraph(number, key):
    return Paragraph.objects.get(section__number=number, key=key)


# Mentions in the seeded content, in each language


@pytest.mark.parametrize(
    "reader, number, key, words, target",
    [
        ("en", "2.3", "definition-2", "Game Play Error — Looking at Extra Cards", "2.2"),
        ("ja", "2.3", "definition-2", "ゲーム上の誤り ― 過剰なカードを見た", "2.2"),  # written 〔…〕 in the text
        ("zh-hans", "2.3", "definition-2", "游戏行动失误~额外看牌", "2.2"),
        ("zh-hans", "2.3", "philosophy-2", "违反游戏规则", "2.5"),  # written “违反游戏规则” in the text
        ("en", "2.3", "philosophy-2", "Game Rule Violation", "2.5"),
        ("ja", "2.3", "philosophy-2", "その他一般のゲームルール抵触行為", "2.5"),  # a short name, in 〔…〕
        ("en", "2.4", "definition-1", "Hidden Card Error", "2.3"),
        ("zh-hans", "2.4", "definition-1", "非公开牌张失误", "2.3"),
        (
            "ja",
            "2.1",
            "definition-8",
            "ゲーム上の誤り ― その他一般のゲームルール抵触行為",
            "2.5",
        ),  # ― where the title has ─
        ("ja", "2.1", "philosophy-2", "非紳士的行為 ― 故意の違反", "4.8"),
    ],
)
def test_seeded_mentions_link_to_the_section_in_the_readers_language(client, ipg, reader, number, key, words, target):
    row = page(client, f"/{reader}/ipg/{number}/").by_id(key)
    assert (words, f"/{reader}/ipg/{target}/") in xrefs(row)


def test_a_mention_links_in_the_readers_language_whatever_language_the_text_is_in(client, ipg):
    html = page(client, "/en/ipg/2.3/?langs=en,zh-hans,ja")
    links = xrefs(html.by_id("definition-2"))
    assert ("游戏行动失误~额外看牌", "/en/ipg/2.2/") in links
    assert ("ゲーム上の誤り ― 過剰なカードを見た", "/en/ipg/2.2/") in links
    assert ("Game Play Error — Looking at Extra Cards", "/en/ipg/2.2/") in links


def test_a_link_names_its_section_for_the_reader(client, ipg):
    link = page(client, "/en/ipg/2.3/").by_id("philosophy-2").find("a", class_="xref")
    assert link.attrs["title"] == "2.5 Game Play Error — Game Rule Violation"


def test_mentions_in_notes_are_links_too(client, ipg):
    html = page(client, "/ja/ipg/2.3/")
    notes = html.by_id("example-f").next_siblings()[0]
    assert notes.tag == "details"
    assert ("ゲーム上の誤り ─ マリガン手順の誤り", "/ja/ipg/2.4/") in xrefs(notes)


# Every form of a mention, in text an editor writes


@pytest.mark.parametrize(
    "code, sentence, words, target",
    [
        (
            "en",
            "This is Game Play Error — Looking at Extra Cards instead.",
            "Game Play Error — Looking at Extra Cards",
            "2.2",
        ),
        ("en", "Treat it as Looking at Extra Cards.", "Looking at Extra Cards", "2.2"),
        ("en", "Otherwise it is a GRV.", "GRV", "2.5"),
        ("en", "See section 2.5 for the rest.", "section 2.5", "2.5"),
        ("en", "As Section 3.2 says, no.", "Section 3.2", "3.2"),
        ("en", "The penalty is in Appendix A.", "Appendix A", "A"),
        ("en", "A Game Play Error - Game Rule Violation, hyphenated.", "Game Play Error - Game Rule Violation", "2.5"),
        (
            "ja",
            "その場合は〔ゲーム上の誤り ― 過剰なカードを見た〕である。",
            "ゲーム上の誤り ― 過剰なカードを見た",
            "2.2",
        ),
        ("ja", "詳しくは2.5節を参照。", "2.5節", "2.5"),
        ("ja", "〔過剰なカードを見た〕として扱う。", "過剰なカードを見た", "2.2"),
        ("zh-hans", "这属于游戏行动失误~额外看牌。", "游戏行动失误~额外看牌", "2.2"),
        ("zh-hans", "依照“违反游戏规则”处理。", "违反游戏规则", "2.5"),
        ("zh-hans", "参见2.5节。", "2.5节", "2.5"),
        ("zh-hans", "旧称游戏行动失误~额外抓牌。", "游戏行动失误~额外抓牌", "2.3"),  # a former name of 2.3
    ],
)
def test_every_form_of_a_mention_becomes_a_link(client, ipg, code, sentence, words, target):
    write("2.4", "definition-2", code, sentence)
    for reader in ("en", "ja"):
        assert (words, f"/{reader}/ipg/{target}/") in xrefs(
            page(client, f"/{reader}/ipg/2.4/?langs={code}").by_id("definition-2")
        )


@pytest.mark.parametrize(
    "sentence",
    [
        "The player was looking at extra cards.",  # a description, not the infraction's name
        "He moved 2.5 cards.",  # a bare number is not a reference
        "Read section 2.5.1 of the rules.",  # not an IPG section number
        "See section 9.9.",  # no such section
        "GRVs are common.",  # not the whole word
    ],
)
def test_words_that_are_not_references_stay_text(client, ipg, sentence):
    write("2.4", "definition-2", "en", sentence)
    assert xrefs(page(client, "/en/ipg/2.4/").by_id("definition-2")) == []


def test_a_section_never_links_to_itself(client, ipg):
    html = page(client, "/ja/ipg/2.3/")
    assert "非公開カードに関する誤り" in html.find("article").text()  # named many times in its notes
    assert not [href for _, href in xrefs(html) if href == "/ja/ipg/2.3/"]
    write(
        "2.4",
        "definition-2",
        "en",
        "Unlike a Hidden Card Error, a Mulligan Procedure Error (section 2.4) is before the game.",
    )
    links = xrefs(page(client, "/en/ipg/2.4/").by_id("definition-2"))
    assert links == [("Hidden Card Error", "/en/ipg/2.3/")]


# The Magic Tournament Rules


def test_mtr_references_are_recognised_and_not_linked_to_the_ipg(client, ipg):
    row = page(client, "/en/ipg/2.1/").by_id("philosophy-10")
    cite = row.find("cite", class_="mtr")
    assert cite.text() == "MTR 4.3節"
    assert cite.attrs["title"] == "Magic Tournament Rules, section 4.3"
    assert xrefs(row) == []
    assert Link.objects.filter(mtr="4.3", paragraph__key="philosophy-10").exists()
    assert not Link.objects.pointing_to(Section.objects.get(number="4.3")).exists()


@pytest.mark.parametrize(
    "sentence, cited",
    [
        ("Apply MTR 4.3 here.", "MTR 4.3"),
        ("Apply MTR section 4.3 here.", "MTR section 4.3"),
        ("See the Magic Tournament Rules section 2.5.", "Magic Tournament Rules section 2.5"),
    ],
)
def test_every_form_of_an_mtr_reference_is_cited(client, ipg, sentence, cited):
    write("2.4", "definition-2", "en", sentence)
    row = page(client, "/en/ipg/2.4/").by_id("definition-2")
    assert [c.text() for c in row.find_all("cite", class_="mtr")] == [cited]
    assert xrefs(row) == []


def test_a_section_number_followed_by_of_the_mtr_is_not_an_ipg_link(client, ipg):
    write("2.4", "definition-2", "en", "This follows section 4.3 of the MTR.")
    assert xrefs(page(client, "/en/ipg/2.4/").by_id("definition-2")) == []


# Backlinks


def test_a_stub_section_lists_what_mentions_it(client, ipg):
    html = page(client, "/en/ipg/2.2/")
    assert "not available yet" in html.find("article").text()
    mentioned = html.find("section", class_="mentioned-in")
    assert mentioned.find("h2").text() == "Mentioned in"
    targets = [a.attrs["href"] for a in mentioned.find_all("a")]
    assert "/en/ipg/2.3/" in targets
    assert "/en/ipg/2.3/#definition-2" in targets
    item = next(
        li
        for li in mentioned.find_all("li")
        if li.find("a") and li.find("a").attrs["href"] == "/en/ipg/2.3/#definition-2"
    )
    assert "English" in item.text() and "简体中文" in item.text() and "日本語" in item.text()


def test_backlinks_are_in_the_readers_language_and_name_the_paragraph(client, ipg):
    mentioned = page(client, "/ja/ipg/4.8/").find("section", class_="mentioned-in")
    assert ["/ja/ipg/2.1/", "/ja/ipg/2.1/#philosophy-2"] == [a.attrs["href"] for a in mentioned.find_all("a")]


def test_backlinks_count_mentions_in_notes(client, ipg):
    mentioned = page(client, "/en/ipg/2.4/").find("section", class_="mentioned-in")
    item = next(li for li in mentioned.find_all("li") if li.find("a").attrs["href"] == "/en/ipg/2.3/#example-f")
    assert "commentary" in item.text()


def test_a_section_that_nothing_mentions_has_no_backlinks(client, ipg):
    assert page(client, "/en/ipg/1.3/").find("section", class_="mentioned-in") is None


def test_a_stub_gets_backlinks_as_soon_as_a_paragraph_mentions_it(client, ipg):
    assert page(client, "/en/ipg/3.3/").find("section", class_="mentioned-in") is None
    write("2.4", "definition-2", "en", "Taking too long to mulligan is Slow Play.")
    mentioned = page(client, "/en/ipg/3.3/").find("section", class_="mentioned-in")
    assert "/en/ipg/2.4/#definition-2" in [a.attrs["href"] for a in mentioned.find_all("a")]


# Names are data, and links follow edits


def test_an_alias_added_in_the_admin_links_its_mentions(admin_client, client, ipg):
    write("2.4", "definition-2", "en", "Arriving late is Lateness, a Tournament Error.")
    assert xrefs(page(client, "/en/ipg/2.4/").by_id("definition-2")) == []
    tardiness = Section.objects.get(number="3.1")
    response = admin_client.post(
        "/admin/ipg/alias/add/", {"section": tardiness.pk, "language": "en", "name": "Lateness"}
    )
    assert response.status_code == 302, response.content[:2000]
    assert ("Lateness", "/en/ipg/3.1/") in xrefs(page(client, "/en/ipg/2.4/").by_id("definition-2"))

    delete(Alias.objects.get(name="Lateness"))
    assert xrefs(page(client, "/en/ipg/2.4/").by_id("definition-2")) == []


def test_a_renamed_section_is_linked_by_its_new_name(client, ipg):
    write("2.4", "definition-2", "en", "It was a Tournament Error — Late Arrival.")
    section = Section.objects.get(number="3.1")
    change(section, title_en="Tournament Error — Late Arrival")
    assert ("Tournament Error — Late Arrival", "/en/ipg/3.1/") in xrefs(
        page(client, "/en/ipg/2.4/").by_id("definition-2")
    )


def test_editing_text_adds_and_removes_links_and_backlinks(client, ipg):
    write("2.4", "definition-2", "en", "Compare with Marked Cards.")
    mentioned = page(client, "/en/ipg/3.8/").find("section", class_="mentioned-in")
    assert "/en/ipg/2.4/#definition-2" in [a.attrs["href"] for a in mentioned.find_all("a")]
    write("2.4", "definition-2", "en", "Compare with nothing.")
    assert page(client, "/en/ipg/3.8/").find("section", class_="mentioned-in") is None
    assert not Link.objects.pointing_to(Section.objects.get(number="3.8")).exists()


def test_notes_are_linked_when_saved(client, ipg):
    add_note("2.4", "example-a", "en", en="Not an LEC.")
    notes = page(client, "/en/ipg/2.4/").by_id("example-a").next_siblings()[0]
    assert xrefs(notes) == [("LEC", "/en/ipg/2.2/")]


def test_a_note_moved_to_another_section_is_mentioned_from_there(client, ipg):
    note = add_note("2.4", "example-a", "en", en="Not an LEC.")
    assert "/en/ipg/2.4/#example-a" in backlinks(client, "/en/ipg/2.2/")
    writing.change_note(note, paragraph=paragraph("2.3", "example-a"), by=writing.CONTENT_FILES)
    assert "/en/ipg/2.3/#example-a" in backlinks(client, "/en/ipg/2.2/")
    assert "/en/ipg/2.4/#example-a" not in backlinks(client, "/en/ipg/2.2/")


def backlinks(client, url):
    mentioned = page(client, url).find("section", class_="mentioned-in")
    return [a.attrs["href"] for a in mentioned.find_all("a")]


def test_an_edit_is_linked_as_soon_as_it_is_committed(transactional_db):
    write("2.4", "definition-2", "en", "Compare with Marked Cards.")  # autocommit: committed at once
    assert Link.objects.pointing_to(Section.objects.get(number="3.8")).get().paragraph.key == "definition-2"


def test_loading_content_rebuilds_every_link(ipg):
    Link.objects.all().delete()
    call_command("loadcontent", verbosity=0)
    assert Link.objects.pointing_to(Section.objects.get(number="2.2")).exists()
    assert Link.objects.filter(mtr="4.3").count() == 1


# Safety


def test_linked_text_stays_sanitized(client, ipg):
    write(
        "2.4",
        "definition-2",
        "en",
        'A GRV <script>alert(1)</script> <img src=x onerror="alert(2)"> [Slow Play](javascript:alert(3)) and [Deck Problem](https://example.org/).',
    )
    row = page(client, "/en/ipg/2.4/").by_id("definition-2")
    assert ("GRV", "/en/ipg/2.5/") in xrefs(row)
    assert not row.find_all("script") and not row.find_all("img")
    assert all("javascript:" not in a.attrs.get("href", "") for a in row.find_all("a"))
    # A mention that is already the text of a link is not linked again inside it.
    assert ("Deck Problem", "/en/ipg/3.5/") not in xrefs(row)
    assert row.find("a", href="https://example.org/").text() == "Deck Problem"


# In a browser


def test_a_judge_follows_a_link_and_comes_back_by_the_backlink(live_ipg, new_page):
    page = new_page(viewport=PHONE)
    page.goto(f"{live_ipg.url}/ja/ipg/2.3/#definition-2")
    page.locator("#definition-2 a.xref").first.click()
    page.wait_for_url(f"{live_ipg.url}/ja/ipg/2.2/")
    backlink = page.locator(".mentioned-in a[href='/ja/ipg/2.3/#definition-2']")
    assert backlink.is_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    backlink.click()
    page.wait_for_url(f"{live_ipg.url}/ja/ipg/2.3/#definition-2")
    assert page.locator("#definition-2").is_visible()
    assert page.evaluate("document.getElementById('definition-2').getBoundingClientRect().top < window.innerHeight")


def test_the_admin_lists_links_and_never_edits_them(admin_client, ipg):
    response = admin_client.get("/admin/crosslinks/link/?q=Looking")
    assert response.status_code == 200
    assert "Game Play Error — Looking at Extra Cards" in response.content.decode()
    assert admin_client.get("/admin/crosslinks/link/add/").status_code == 403
