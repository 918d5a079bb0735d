"""In headless Chromium: a Japanese translator, whose account asks for a Japanese workspace, takes a translation
memory suggestion on 2.4, edits it and saves it with the keyboard; the public Japanese page shows it."""

import pytest
from django.contrib.auth.models import Group, User

from conftest import PHONE
from ipgsite.editing.models import Translator
from ipgsite.ipg.models import Paragraph

pytestmark = [pytest.mark.browser, pytest.mark.writes]  # a translator saves

PASSWORD = "a-long-test-password"
FIRST = "（ブラウザ試験の訳文）プレイヤーが8枚のカードを引いた。"
EDITED = "（ブラウザ試験の訳文）プレイヤーがマリガン後に7枚のカードを引いた。"


def test_a_japanese_translator_takes_a_memory_suggestion_edits_it_and_saves_with_the_keyboard(
    live_ipg, new_page, keep_screenshot
):
    user = User.objects.create_user("hanako", password=PASSWORD, is_staff=True)
    user.groups.add(Group.objects.get(name="translators-ja"))
    Translator.objects.create(user=user, interface_language="ja")
    page = new_page(viewport=PHONE, locale="en-US")  # the browser asks for English; the account, for Japanese

    page.goto(f"{live_ipg.url}/admin/login/?next=/admin/translate/2.4/ja/")
    page.fill("#id_username", "hanako")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_url("**/admin/translate/2.4/ja/")
    assert page.locator("html").get_attribute("lang") == "ja"
    assert page.locator(".tr-save-all button").inner_text() == "すべて保存"
    page.locator(".tr-shortcuts summary").click()
    assert "Ctrl" in page.locator(".tr-shortcuts").inner_text() and "保存" in page.locator(".tr-shortcuts").inner_text()

    # Example A is translated first (Ctrl+Enter in its field saves it) ...
    box = page.locator("section#example-a textarea").first
    box.fill(FIRST)
    box.press("Control+Enter")
    page.wait_for_url("**/admin/translate/2.4/ja/?from=en#example-a")
    assert Paragraph.objects.get(section__number="2.4", key="example-a").text_in("ja") == FIRST

    # ... so Example B, whose English is much like it, is offered that translation, with the English differences.
    row = page.locator("section#example-b")
    suggestion = row.locator(".tr-suggestion").first
    assert "2.4 #example-a" in suggestion.inner_text() and "%" in suggestion.inner_text()
    assert suggestion.locator(".tr-memory-source ins").count() > 0
    assert suggestion.locator(".tr-memory-translation").inner_text() == FIRST
    box = row.locator("textarea").first
    assert box.input_value() == ""
    suggestion.locator("button.tr-use").click()
    assert box.input_value() == FIRST
    assert Paragraph.objects.get(section__number="2.4", key="example-b").text_in("ja") == ""  # nothing saved yet
    box.fill(EDITED)
    row.locator(".tr-preview").get_by_text("マリガン後").wait_for()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    keep_screenshot(page, "translation-memory-2.4-ja-phone.png")
    box.press("Control+Enter")
    page.wait_for_url("**/admin/translate/2.4/ja/?from=en#example-b")
    assert page.locator("section#example-b .tr-state").first.inner_text() == "翻訳済み"

    page.goto(f"{live_ipg.url}/ja/ipg/2.4/")
    shown = page.locator("#example-b [lang=ja]", has_text="マリガン後に7枚").first
    assert shown.is_visible()
    assert shown.inner_text().strip().endswith(EDITED)  # after the example letter
