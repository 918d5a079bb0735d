"""No lost updates: the second of two concurrent saves is refused and both versions are shown."""

import pytest

from ipgsite.editing.models import Change
from people import (
    MANAGEMENT_FORM,
    admin_form_data,
    client_for,
    editor,
    paragraph,
    translate_form,
    translate_url,
    translator,
)

pytestmark = pytest.mark.database  # rows locked with select_for_update, which only PostgreSQL takes


def test_the_second_translator_is_refused_and_sees_both_versions(ipg):
    first, second = client_for(translator("ja", "first")), client_for(translator("ja", "second"))
    first_form, second_form = translate_form(first, "2.4", "ja"), translate_form(second, "2.4", "ja")

    first_form.update({"p-philosophy-1-text": "（試験）一人目の訳。", "save": "p-philosophy-1"})
    assert first.post(translate_url("2.4", "ja"), first_form).status_code == 302

    second_form.update({"p-philosophy-1-text": "（試験）二人目の訳。", "save": "p-philosophy-1"})
    response = second.post(translate_url("2.4", "ja"), second_form)
    assert response.status_code == 409
    assert paragraph("2.4", "philosophy-1").text_ja == "（試験）一人目の訳。"  # nothing overwritten
    html = response.content.decode()
    conflict = html[html.index('class="tr-conflict"') :]
    assert "first saved this text" in conflict
    assert '<blockquote class="tr-theirs" lang="ja">（試験）一人目の訳。</blockquote>' in conflict
    assert '<blockquote class="tr-yours" lang="ja">（試験）二人目の訳。</blockquote>' in conflict
    assert ">（試験）二人目の訳。</textarea>" in html  # the second translator's work is still in the field

    # Saving again, having seen both, is a deliberate choice and goes through.
    again = translate_form(second, "2.4", "ja")
    resubmit = dict(second_form)
    resubmit["p-philosophy-1-revision"] = again["p-philosophy-1-revision"]
    assert second.post(translate_url("2.4", "ja"), resubmit).status_code == 302
    assert paragraph("2.4", "philosophy-1").text_ja == "（試験）二人目の訳。"


def test_save_all_never_reverts_a_paragraph_someone_else_changed(ipg):
    first, second = client_for(translator("ja", "first")), client_for(translator("ja", "second"))
    stale = translate_form(second, "2.4", "ja")
    form = translate_form(first, "2.4", "ja")
    form.update({"p-remedy-2-text": "（試験）先に保存。", "save": "p-remedy-2"})
    first.post(translate_url("2.4", "ja"), form)

    stale.update({"p-remedy-3-text": "（試験）別の段落。", "save": "*"})
    assert second.post(translate_url("2.4", "ja"), stale).status_code == 302
    assert paragraph("2.4", "remedy-2").text_ja == "（試験）先に保存。"  # left untouched on the stale page: kept
    assert paragraph("2.4", "remedy-3").text_ja == "（試験）別の段落。"


def test_different_languages_of_one_paragraph_do_not_conflict(ipg):
    ja, zh = client_for(translator("ja")), client_for(translator("zh-hans"))
    ja_form, zh_form = translate_form(ja, "2.4", "ja"), translate_form(zh, "2.4", "zh-hans")
    ja_form.update({"p-definition-2-text": "（試験）日本語。", "save": "p-definition-2"})
    zh_form.update({"p-definition-2-text": "（测试）中文。", "save": "p-definition-2"})
    assert ja.post(translate_url("2.4", "ja"), ja_form).status_code == 302
    assert zh.post(translate_url("2.4", "zh-hans"), zh_form).status_code == 302
    p = paragraph("2.4", "definition-2")
    assert (p.text_ja, p.text_zh_hans) == ("（試験）日本語。", "（测试）中文。")


def test_unsaved_edits_survive_saving_another_paragraph(ipg):
    ja = client_for(translator("ja"))
    form = translate_form(ja, "2.4", "ja")
    form.update(
        {
            "p-example-a-text": "（試験）保存する。",
            "p-example-b-text": "（試験）まだ保存しない。",
            "save": "p-example-a",
        }
    )
    response = ja.post(translate_url("2.4", "ja"), form)
    assert response.status_code == 200
    assert paragraph("2.4", "example-a").text_ja == "（試験）保存する。"
    assert not paragraph("2.4", "example-b").text_ja
    assert ">（試験）まだ保存しない。</textarea>" in response.content.decode()


def test_the_admin_refuses_the_second_of_two_concurrent_edits(ipg):
    first, second = client_for(editor("first")), client_for(editor("second"))
    p = paragraph("2.3", "philosophy-4")
    url = f"/admin/ipg/paragraph/{p.pk}/change/"
    first_data, second_data = admin_form_data(first.get(url)), admin_form_data(second.get(url))

    first_data["text_zh_hans"] = "（测试）第一位的版本。"
    assert first.post(url, first_data).status_code == 302
    second_data["text_zh_hans"] = "（测试）第二位的版本。"
    second_data["text_ja"] = "（試験）二人目は日本語も直した。"
    response = second.post(url, second_data)
    assert response.status_code == 200
    html = response.content.decode()
    assert "first saved this text after you opened the page" in html
    assert "（测试）第一位的版本。" in html and "（测试）第二位的版本。" in html
    p.refresh_from_db()
    assert p.text_zh_hans == "（测试）第一位的版本。" and "二人目" not in p.text_ja  # nothing of the refused save

    # The re-shown form carries the new revision: saving it again is the deliberate overwrite.
    second_data["base_revision"] = response.context["adminform"].form.data["base_revision"]
    assert second.post(url, second_data).status_code == 302
    p.refresh_from_db()
    assert p.text_zh_hans == "（测试）第二位的版本。"
    assert Change.objects.of_text(p, "zh-hans").latest("pk").before == "（测试）第一位的版本。"


def test_the_admin_keeps_a_change_the_other_editor_made_to_a_field_left_untouched(ipg):
    first, second = client_for(editor("first")), client_for(editor("second"))
    p = paragraph("2.3", "philosophy-5")
    url = f"/admin/ipg/paragraph/{p.pk}/change/"
    first_data, second_data = admin_form_data(first.get(url)), admin_form_data(second.get(url))
    first_data["text_zh_hans"] = "（测试）第一位。"
    first.post(url, first_data)
    second_data["text_ja"] = "（試験）二人目。"
    assert second.post(url, second_data).status_code == 302
    p.refresh_from_db()
    assert (p.text_zh_hans, p.text_ja) == ("（测试）第一位。", "（試験）二人目。")


def test_malformed_posts_get_a_message_or_a_404_never_an_error(ipg):
    ja = client_for(translator("ja"))
    url = translate_url("2.4", "ja")
    assert ja.post(url, {"confirm": "*"}).status_code == 404
    assert ja.post(url, {"review": "p-no-such-key"}).status_code == 404
    for revision in ("", "x", "-1", "99999999999999999999999", "-99999999999999999999999"):
        response = ja.post(
            url,
            {
                **MANAGEMENT_FORM,
                "p-example-a-text": "（試験）",
                "p-example-a-revision": revision,
                "save": "p-example-a",
            },
        )
        assert response.status_code == 200, revision
        assert "reload the page" in response.content.decode()
    response = ja.post(
        url, {**MANAGEMENT_FORM, "p-example-a-text": "x" * 20_001, "p-example-a-revision": "1", "save": "p-example-a"}
    )
    assert response.status_code == 200 and "at most 20000" in response.content.decode()
    response = ja.post(
        url, {**MANAGEMENT_FORM, "p-example-a-text": "a\x00b", "p-example-a-revision": "1", "save": "p-example-a"}
    )
    assert response.status_code == 200 and "NUL" in response.content.decode()
    assert not paragraph("2.4", "example-a").text_ja
