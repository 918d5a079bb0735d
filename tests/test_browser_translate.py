"""In headless Chromium: a Japanese translator translates a missing 2.4 paragraph; the public page shows it."""

import pytest
from django.contrib.auth.models import Group, User

from conftest import PHONE

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
