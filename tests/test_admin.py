"""The Django admin for sections, paragraphs, notes and aliases, with language tabs served locally."""

import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command

from people import CONTENT, admin_form_data, admin_pages, client_for, editor, paragraph

JQUERY_UI = "workspace/vendor/jquery-ui/jquery-ui.min.js"


def test_an_editor_reaches_every_admin_page(ipg):
    client = client_for(editor())
    for url in admin_pages():
        assert client.get(url).status_code == 200, url


def test_anonymous_users_reach_no_admin_page(ipg, client):
    for url in admin_pages():
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith("/admin/login/"), url
    for url in ["/admin/translate/preview/", "/admin/translate/2.3/ja/"]:
        response = client.post(url, {"text": "x", "p-example-a-text": "x", "p-example-a-revision": "1", "save": "*"})
        assert response.status_code == 302 and response["Location"].startswith("/admin/login/")
    assert "x" not in paragraph("2.3", "example-a").text_ja


def test_language_tabs_load_jquery_ui_from_our_own_static_files(ipg):
    client = client_for(editor())
    html = client.get(f"/admin/ipg/paragraph/{paragraph('2.3', 'example-c').pk}/change/").content.decode()
    scripts = re.findall(r'<script src="([^"]+)"', html)
    assert f"/static/{JQUERY_UI}" in scripts
    assert "/static/modeltranslation/js/tabbed_translation_fields.js" in scripts
    assert all(src.startswith("/") and not src.startswith("//") for src in scripts), scripts  # same origin only
    assert "googleapis" not in html and "//ajax" not in html
    # One field per language, each a modeltranslation tab.
    for suffix in ("en", "zh_hans", "ja"):
        assert f'name="text_{suffix}"' in html
        assert f"mt-field-text-{suffix}" in html
    vendored = finders.find(JQUERY_UI)
    assert vendored, "jQuery UI is vendored under static/"
    script = Path(vendored).read_text(encoding="utf-8")
    assert script.startswith("/*! jQuery UI") and "widgets/tabs.js" in script[:2000]


def test_an_editor_edits_a_translation_in_the_admin_and_the_public_page_shows_it(ipg, client):
    staff = client_for(editor())
    p = paragraph("2.4", "definition-2")
    url = f"/admin/ipg/paragraph/{p.pk}/change/"
    data = admin_form_data(staff.get(url))
    data["text_ja"] = "（試験用の訳文）\r\n二行目。"
    response = staff.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors if response.context else response
    p.refresh_from_db()
    assert p.text_ja == "（試験用の訳文）\n二行目。"  # the browser's CRLF is stored as LF
    page = client.get("/ja/ipg/2.4/").content.decode()
    assert "（試験用の訳文）" in page


def test_editors_edit_structure_english_and_notes(ipg):
    staff = client_for(editor())
    p = paragraph("2.3", "philosophy-3")
    url = f"/admin/ipg/paragraph/{p.pk}/change/"
    data = admin_form_data(staff.get(url))
    data["bullet"] = "on"
    data["text_en"] = p.text_en + " (test edit)"
    data["notes-0-body_en"] = "An English translation of the note, for the test."
    response = staff.post(url, data)
    assert response.status_code == 302
    p.refresh_from_db()
    assert p.bullet and p.text_en.endswith("(test edit)")
    assert p.notes.first().body_en == "An English translation of the note, for the test."


def test_export_writes_admin_edits_back_to_content_files(ipg, tmp_path):
    staff = client_for(editor())
    p = paragraph("2.4", "remedy-3")
    url = f"/admin/ipg/paragraph/{p.pk}/change/"
    data = admin_form_data(staff.get(url))
    data["text_zh_hans"] = "测试用的译文。"
    assert staff.post(url, data).status_code == 302
    call_command("exportcontent", str(tmp_path), verbosity=0)
    exported = (tmp_path / "sections" / "2.4.toml").read_text(encoding="utf-8")
    block = exported[exported.index('key = "remedy-3"') :]
    assert 'zh-hans = "测试用的译文。"' in block.split("[[paragraphs]]")[0]
    # Everything else is as content/ has it.
    assert (tmp_path / "sections" / "2.3.toml").read_bytes() == (CONTENT / "sections" / "2.3.toml").read_bytes()


@pytest.mark.parametrize("number", ["9.9", "x"])
def test_unknown_sections_and_languages_are_404_in_the_translators_pages(ipg, number):
    staff = client_for(editor())
    assert staff.get(f"/admin/translate/{number}/ja/").status_code == 404
    assert staff.get(f"/admin/translate/{number}/import/").status_code == 404
    assert staff.get("/admin/translate/2.3/xx/").status_code == 404
    assert staff.get("/admin/translate/2.3/history/no-such-key/").status_code == 404
