"""In headless Chromium, on a phone: a Japanese translator downloads the XLIFF from the dashboard, translates a paragraph
in it as a translation tool would, uploads it, and reads what changed."""

import pytest
from django.contrib.auth.models import Group, User
from translate.storage import xliff

from conftest import PHONE
from ipgsite.ipg.models import Paragraph

pytestmark = [pytest.mark.browser, pytest.mark.writes]  # a translator saves

PASSWORD = "a-long-test-password"
TRANSLATION = "ブラウザ試験で訳し直した例(C)。"


def test_a_translator_downloads_translates_and_uploads_an_xliff_file(live_ipg, new_page, tmp_path):
    user = User.objects.create_user("hanako", password=PASSWORD, is_staff=True)
    user.groups.add(Group.objects.get(name="translators-ja"))
    page = new_page(viewport=PHONE)
    page.goto(f"{live_ipg.url}/admin/login/?next=/admin/translate/")
    page.fill("#id_username", "hanako")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_url("**/admin/translate/")

    files = page.locator("section.exchange")
    assert files.locator("a[href='/admin/translate/exchange/en/zh-hans/xliff/']").count() == 0  # not theirs
    assert files.bounding_box()["width"] <= PHONE["width"]
    with page.expect_download() as download:
        files.locator("a[href='/admin/translate/exchange/en/ja/xliff/']").click()
    assert download.value.suggested_filename == "ipg-en-ja.xlf"
    path = tmp_path / "ipg-en-ja.xlf"
    download.value.save_as(path)

    store = xliff.xlifffile.parsefile(path.open("rb"))
    unit = next(u for u in store.unit_iter() if u.xmlelement.get("id") == "2.3#example-c")
    unit.target = TRANSLATION
    unit.set_state_n(xliff.xliffunit.statemap["translated"])
    path.write_bytes(bytes(store))

    files.locator("input[type=file]").set_input_files(str(path))
    files.locator("button[type=submit]").click()
    page.wait_for_url("**/admin/translate/exchange/upload/")
    report = page.locator(".exchange-report")
    assert "1 text changed" in report.inner_text()
    assert report.locator(".exchange-changed [lang=ja]").inner_text() == TRANSLATION
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert Paragraph.objects.get(section__number="2.3", key="example-c").text_ja == TRANSLATION
