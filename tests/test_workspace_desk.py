"""The translator's desk: where signing in leads, the admin's link to the dashboard, one count per dashboard cell,
"Next" taking outdated translations before missing ones, and what an outdated translation shows of its English."""

import re

from django.contrib.auth.models import User
from django.test import Client

from edits import write
from ipgsite.editing.models import State, Status
from ipgsite.ipg.models import Section
from pages import parse
from people import client_for, editor, paragraph, person, translate_form, translate_url, translator

PASSWORD = "a-long-test-password"


def sign_in(username, next=None):
    """The admin's sign-in form, as a browser posts it: where it leads."""
    client = Client()
    data = {"username": username, "password": PASSWORD, "next": "/admin/" if next is None else next}
    response = client.post("/admin/login/", data)
    assert response.status_code == 302, response.content.decode()[:500]
    return response["Location"]


def test_a_translator_signs_in_to_the_dashboard_and_editors_to_the_admin(ipg):
    translator("zh-hans", "lihua")
    editor("boss")
    User.objects.create_superuser("root", password=PASSWORD)
    assert sign_in("lihua") == "/admin/translate/"
    assert sign_in("boss") == "/admin/"
    assert sign_in("root") == "/admin/"
    # Where a translator was going, they go.
    assert sign_in("lihua", next="/admin/ipg/note/") == "/admin/ipg/note/"
    # Signed in already, the sign-in page leads them on the same way.
    client = client_for(User.objects.get(username="lihua"))
    assert client.get("/admin/login/")["Location"] == "/admin/translate/"
    # A wrong password is the admin's own form again, not a redirect.
    assert (
        Client().post("/admin/login/", {"username": "lihua", "password": "wrong", "next": "/admin/"}).status_code == 200
    )


def test_the_admin_index_links_the_dashboard_for_everyone_who_translates(ipg):
    for user in (translator("zh-hans"), editor()):
        page = parse(client_for(user).get("/admin/").content.decode())
        link = page.find("div", class_="tr-desk-link").find("a")
        assert link.attrs["href"] == "/admin/translate/" and "dashboard" in link.text()
    # Staff who translate nothing cannot open the dashboard: no link to it.
    page = client_for(person("nobody")).get("/admin/").content.decode()
    assert "tr-desk-link" not in page and 'href="/admin/translate/"' not in page


def cells(response):
    return {section.number: {cell.code: cell for cell in row} for section, row in response.context["rows"]}


def test_each_cell_shows_one_count_labelled_with_its_language(ipg):
    response = client_for(translator("zh-hans")).get("/admin/translate/")
    zh_23 = cells(response)["2.3"]["zh-hans"]
    notes = Status.of_notes.in_section(Section.objects.get(number="2.3")).in_language("zh-hans")
    assert zh_23.needs_work == 1 + notes.filter(state=State.MISSING).count()  # upgrade-1 outdated, the notes missing
    page = parse(response.content.decode())
    for td in page.find("table", class_="tr-progress").find_all("td"):
        assert len(td.find_all(class_="tr-count")) <= 1
        label = td.find("span", class_="tr-cell-language")
        assert label is not None and label.attrs["lang"] in ("en", "zh-Hans", "ja")
        assert td.find_all(class_="tr-count") or "Nothing to do" in td.text()
    row = next(tr for tr in page.find("table", class_="tr-progress").find_all("tr") if "2.3" in tr.text())
    chinese = next(td for td in row.find_all("td") if td.find("span", class_="tr-cell-language").text() == "简体中文")
    assert chinese.find(class_="tr-count").text() == str(zh_23.needs_work)
    assert "1 outdated" in chinese.text() and f"{zh_23.missing} missing" in chinese.text()


def test_next_takes_outdated_translations_before_missing_ones(ipg):
    """2.1 has missing Chinese, 2.3's upgrade-1 is outdated: Next is 2.3's upgrade-1, then the missing ones."""
    zh = translator("zh-hans")
    client = client_for(zh)
    response = client.get("/admin/translate/")
    html = response.content.decode()
    first = parse(html).find("ul", class_="tr-next").find("a")
    assert first.text().endswith("2.3 #upgrade-1") and first.attrs["href"] == "/admin/translate/2.3/zh-hans/#upgrade-1"
    # Each cell's own next follows the same order: in 2.3, the outdated paragraph before the missing notes.
    assert cells(response)["2.3"]["zh-hans"].next_key == "upgrade-1"

    # Another outdated one, earlier in 2.3: it comes first, and "Save and next" goes through the outdated ones in
    # section order before any missing one.
    before = paragraph("2.3", "example-b").text_en
    write("2.3", "example-b", "en", before.replace("two cards", "three cards"))
    response = client.get("/admin/translate/")
    assert cells(response)["2.3"]["zh-hans"].next_key == "example-b"
    form = translate_form(client, "2.3", "zh-hans")
    form.update({"p-example-b-text": form["p-example-b-text"] + "（三张）", "save_next": "p-example-b"})
    response = client.post(translate_url("2.3", "zh-hans"), form)
    assert response.url == "/admin/translate/2.3/zh-hans/#upgrade-1"
    # The last outdated one saved: on to the first missing text, from the first section.
    form = translate_form(client, "2.3", "zh-hans")
    form.update({"p-upgrade-1-text": form["p-upgrade-1-text"] + "（测试）", "save_next": "p-upgrade-1"})
    response = client.post(translate_url("2.3", "zh-hans"), form)
    first_missing = Status.everything.of_paragraphs().in_language("zh-hans").needing_work().in_reading_order().first()
    assert first_missing.state == State.MISSING and first_missing.paragraph.section.number == "2.1"
    assert response.url.startswith("/admin/translate/2.1/zh-hans/#")


def test_an_outdated_translation_shows_the_english_diff_since_the_english_it_follows(ipg):
    before = paragraph("2.3", "example-b").text_en
    write("2.3", "example-b", "en", before.replace("two cards", "three cards"))
    page = parse(client_for(translator("zh-hans")).get(translate_url("2.3", "zh-hans")).content.decode())
    box = page.by_id("example-b").find("div", class_="tr-outdated")
    diff = box.find("p", class_="tr-diff")
    assert diff.attrs["lang"] == "en"
    assert [d.text() for d in diff.find_all("del")] == ["two"] and [i.text() for i in diff.find_all("ins")] == ["three"]
    # Beside it, both ways on: edit and save, or confirm.
    buttons = {b.attrs["name"] for b in page.by_id("example-b").find_all("button")}
    assert {"save", "save_next", "preview", "confirm"} <= buttons


def test_an_outdated_translation_of_an_english_no_release_holds_shows_why_as_recorded(ipg):
    """2.3's upgrade-1 in Chinese follows an English the site never held: no diff can be made. Its status records
    what the translation lacks; the page says so, and marks the phrases it quotes in the English beside it."""
    html = client_for(translator("zh-hans")).get(translate_url("2.3", "zh-hans")).content.decode()
    row = parse(html).by_id("upgrade-1")
    box = row.find("div", class_="tr-outdated")
    assert "which this site does not hold" in box.text() and box.find("p", class_="tr-diff") is None
    remark = Status.objects.get(paragraph=paragraph("2.3", "upgrade-1"), language="zh-hans").remark
    assert box.find("p", class_="tr-remark").text() == " ".join(remark.split())
    marks = [m.text() for m in row.find("div", class_="tr-source").find_all("mark")]
    assert marks == ["printed on the card", "before an effect that would reveal it is played"]
    english = row.find("div", class_="tr-source").find("div", class_="tr-text")
    assert english.attrs["lang"] == "en"  # the English itself, whole, marks and all
    assert re.sub(r"\s", "", english.text()) == re.sub(r"\s", "", paragraph("2.3", "upgrade-1").text_en)
