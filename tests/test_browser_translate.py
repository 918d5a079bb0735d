"""In headless Chromium: a Japanese translator translates a missing 2.4 paragraph; the public page shows it."""

import pytest
from django.contrib.auth.models import Group, User

from conftest import DESKTOP, PHONE

pytestmark = [pytest.mark.browser, pytest.mark.writes]  # a translator saves

PASSWORD = "a-long-test-password"
TRANSLATION = "（ブラウザ試験の訳文）**最初の**段落。"


def test_a_japanese_translator_translates_2_4_and_is_refused_english(live_ipg, new_page, keep_screenshot):
    user = User.objects.create_user("hanako", password=PASSWORD, is_staff=True)
    user.groups.add(Group.objects.get(name="translators-ja"))
    page = new_page(viewport=PHONE)

    page.goto(f"{live_ipg.url}/admin/login/?next=/admin/translate/")
    page.fill("#id_username", "hanako")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_url("**/admin/translate/")

    # The dashboard's "next" link leads to the first paragraph that needs work: 2.3's remedy-5, whose Japanese
    # follows an older English (seed 001). Each section's row links to its own next one.
    assert page.locator("ul.tr-next a").first.inner_text().endswith("2.3 #remedy-5")
    page.click("a[href$='/admin/translate/2.4/ja/#definition-1']")
    page.wait_for_url("**/admin/translate/2.4/ja/#definition-1")
    row = page.locator("section#definition-1")
    assert "missing" in row.locator(".tr-state").inner_text()
    assert row.locator(".tr-source .tr-text").get_attribute("lang") == "en"
    box = row.locator("textarea")
    assert box.get_attribute("lang") == "ja"
    box.fill(TRANSLATION)
    # The live preview is the sanitized rendering a public page will show.
    row.locator(".tr-preview strong").wait_for()
    assert row.locator(".tr-preview strong").inner_text() == "最初の"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    row.locator("button[name=save]").click()
    page.wait_for_url("**/admin/translate/2.4/ja/?from=en#definition-1")
    assert "translated" in page.locator("section#definition-1 .tr-state").inner_text()
    keep_screenshot(page, "translate-2.4-ja-phone.png")

    page.goto(f"{live_ipg.url}/ja/ipg/2.4/")
    shown = page.locator("#definition-1 [lang=ja]", has_text="ブラウザ試験の訳文").first
    assert shown.is_visible()
    assert shown.locator("strong").inner_text() == "最初の"

    # English is not theirs: the page is refused, and so is a crafted save.
    response = page.goto(f"{live_ipg.url}/admin/translate/2.4/en/")
    assert response.status == 403
    assert "You may not edit the English text" in page.content()
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    crafted = page.request.post(
        f"{live_ipg.url}/admin/translate/2.4/en/",
        form={
            "csrfmiddlewaretoken": token,
            "p-definition-1-text": "Overwritten.",
            "p-definition-1-revision": "99",
            "save": "*",
        },
    )
    assert crafted.status == 403
    page.goto(f"{live_ipg.url}/en/ipg/2.4/")
    assert "Overwritten." not in page.content()
    assert "A player makes an error as part of the mulligan process." in page.locator("#definition-1").inner_text()


# The translator's desk, as a Chinese translator sees it on a phone and at a desk.

LAYOUTS = [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")]

NOT_COVERED = """(button) => {
  button.scrollIntoView({block: "end"});  // the bottom of the screen, where a sticky bar would sit
  const box = button.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return hit === button || button.contains(hit);
}"""

LOOKS_LIKE_A_BUTTON = """(button) => {
  const style = getComputedStyle(button);
  const filled = style.backgroundColor !== "rgba(0, 0, 0, 0)" && style.backgroundColor !== getComputedStyle(document.body).backgroundColor;
  return style.opacity === "1" && !button.disabled && style.cursor === "pointer"
    && (filled || parseFloat(style.borderTopWidth) >= 1) && button.getBoundingClientRect().height >= 40;
}"""


@pytest.mark.parametrize("viewport", LAYOUTS)
def test_a_chinese_translator_at_the_desk(live_ipg, new_page, keep_screenshot, viewport):
    from edits import paragraph as stored
    from edits import write
    from ipgsite.editing.models import Change, Translator

    phone = viewport == PHONE
    english = stored("2.3", "example-b").text_en
    write("2.3", "example-b", "en", english.replace("two cards", "three cards"))  # outdates its Chinese
    user = User.objects.create_user("lihua", password=PASSWORD, is_staff=True)
    user.groups.add(Group.objects.get(name="translators-zh-hans"))
    Translator.objects.create(user=user, interface_language="zh-hans")
    page = new_page(viewport=viewport)
    width = viewport["width"]

    # Signing in leads to the dashboard.
    page.goto(f"{live_ipg.url}/admin/login/")
    page.fill("#id_username", "lihua")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_url("**/admin/translate/")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    keep_screenshot(page, f"desk-dashboard-zh-hans-{width}.png")

    # One count per cell, and each cell says its language: in the table's head at a desk, in the cell on a phone.
    table = page.locator("table.tr-progress")
    assert table.locator("thead").is_visible() is not phone
    cells = table.locator("td.tr-cell")
    assert cells.count() == 9  # 2.1, 2.3, 2.4 in three languages
    for index in range(cells.count()):
        cell = cells.nth(index)
        assert cell.locator(".tr-count").count() <= 1
        label = cell.locator(".tr-cell-language")
        assert label.is_visible() is phone
    chinese_23 = table.locator("tr", has_text="2.3").locator("td.tr-cell").nth(1)
    assert (
        chinese_23.locator(".tr-cell-language").inner_text() == "简体中文"
        and chinese_23.locator(".tr-count").is_visible()
    )

    # Next: the outdated translations first (2.3's example-b, then upgrade-1), before 2.1's missing ones.
    next_link = page.locator("ul.tr-next a").first
    assert next_link.get_attribute("href") == "/admin/translate/2.3/zh-hans/#example-b"

    # The admin's index links the dashboard.
    page.goto(f"{live_ipg.url}/admin/")
    assert page.locator(".tr-desk-link a").get_attribute("href") == "/admin/translate/"
    assert page.locator(".tr-desk-link a").is_visible()
    page.go_back()

    # The outdated paragraph shows what changed in the English since the English its translation follows.
    page.locator("ul.tr-next a").first.click()
    page.wait_for_url("**/admin/translate/2.3/zh-hans/#example-b")
    row = page.locator("section#example-b")
    diff = row.locator(".tr-outdated .tr-diff")
    assert diff.get_attribute("lang") == "en" and diff.is_visible()
    assert diff.locator("del").inner_text() == "two" and diff.locator("ins").inner_text() == "three"
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    keep_screenshot(page, f"desk-translate-zh-hans-{width}.png")

    # Buttons look like buttons, and none is under the "Save all" bar, which stays in view only at a desk.
    bar = page.locator(".tr-save-all")
    assert bar.evaluate("(bar) => getComputedStyle(bar).position") == ("static" if phone else "sticky")
    buttons = page.locator(".tr-actions button:visible")
    assert buttons.count() > 10
    for index in range(min(buttons.count(), 24)):
        button = buttons.nth(index)
        assert button.evaluate(LOOKS_LIKE_A_BUTTON), button.inner_text()
        assert button.evaluate(NOT_COVERED), button.inner_text()
    assert bar.locator("button").evaluate(NOT_COVERED)

    # "Save and next" from the outdated paragraph goes on to the next outdated one.
    box = row.locator("textarea")
    box.fill(box.input_value() + "（三张）")
    row.locator("button.tr-save-next").click()
    page.wait_for_url("**/admin/translate/2.3/zh-hans/#upgrade-1")
    assert page.locator("section#upgrade-1 .tr-outdated").is_visible()

    # The history: each change once, as one diff; no revert of a text's first version, which would empty it.
    page.goto(f"{live_ipg.url}/admin/translate/2.3/history/example-b/")
    changes = list(Change.objects.of_paragraph(stored("2.3", "example-b")))
    entries = page.locator("li.tr-change")
    assert entries.count() == len(changes)
    assert page.locator(".tr-history blockquote").count() == 0
    for change in changes:
        entry = page.locator(f"li#change-{change.pk}")
        assert entry.locator(".tr-change-diff").count() == 1
        offered = change.language == "zh-hans" and bool(change.before)
        assert (entry.locator("form button").count() == 1) is offered, (change.language, change.before[:20])
        if offered:
            assert entry.locator("form button").evaluate(NOT_COVERED)
    latest = page.locator(f"li#change-{changes[0].pk} .tr-change-diff")
    assert latest.locator("ins").inner_text() == "（三张）" and latest.locator("del").count() == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    keep_screenshot(page, f"desk-history-zh-hans-{width}.png")


# How many lines an element's text takes: the distinct tops of its text's line boxes.
LINES_JS = """(el) => {
  const range = document.createRange();
  range.selectNodeContents(el);
  return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
}"""
# Characters a line of an element holds: its text's width in em (a CJK character is 1em wide) and in ch (a Latin one).
MEASURE_JS = """(el) => {
  const style = getComputedStyle(el);
  const width = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const probe = document.createElement('span');
  probe.style.cssText = 'display: inline-block; width: 1ch';
  el.appendChild(probe);
  const ch = probe.getBoundingClientRect().width;
  probe.remove();
  return { em: width / parseFloat(style.fontSize), ch: width / ch, lang: el.closest('[lang]').lang };
}"""


def test_the_desk_keeps_its_next_links_on_one_line_and_its_texts_at_a_readable_measure(live_ipg, new_page):
    user = User.objects.create_user("mei", password=PASSWORD, is_staff=True)
    user.groups.add(Group.objects.get(name="translators-ja"), Group.objects.get(name="translators-zh-hans"))
    for viewport in (PHONE, DESKTOP):
        page = new_page(viewport=viewport)
        page.goto(f"{live_ipg.url}/admin/login/?next=/admin/translate/")
        page.fill("#id_username", "mei")
        page.fill("#id_password", PASSWORD)
        page.click("input[type=submit]")
        page.wait_for_url("**/admin/translate/")
        links = page.locator(".tr-cell-links")
        assert links.count() > 0
        for i in range(links.count()):  # "Translate · next: #remedy-5"
            assert links.nth(i).evaluate(LINES_JS) == 1, links.nth(i).inner_text()
        for item in page.locator("ul.tr-next li").all():  # the button to the next text and its state, side by side
            boxes = [child.bounding_box() for child in item.locator(":scope > *").all()]
            assert max(b["y"] for b in boxes) < min(b["y"] + b["height"] for b in boxes), item.inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]

        page.goto(f"{live_ipg.url}/admin/translate/2.3/history/definition-1/")
        measures = [d.evaluate(MEASURE_JS) for d in page.locator(".tr-change-diff").all()]
        assert {m["lang"] for m in measures} >= {"ja", "zh-Hans", "en"}
        for m in measures:
            # At most about 40 CJK characters a line (1em each), or 75 Latin ones (1ch each).
            assert m["em"] <= 40.5 if m["lang"] in ("ja", "zh-Hans") else m["ch"] <= 75.5, m
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
