"""Every change to text or notes is recorded (who, when, before, after), viewable per paragraph, revertible."""

from ipgsite.editing.models import Change
from ipgsite.ipg.models import Note
from people import (
    admin_form_data,
    client_for,
    editor,
    history_texts,
    paragraph,
    translate_form,
    translate_url,
    translator,
)


def save(client, number, code, key, text):
    form = translate_form(client, number, code)
    form.update({f"p-{key}-text": text, "save": f"p-{key}"})
    response = client.post(translate_url(number, code), form)
    assert response.status_code == 302
    return response


def test_a_translators_save_is_recorded_with_who_when_before_and_after(ipg):
    user = translator("ja")
    client = client_for(user)
    save(client, "2.4", "ja", "example-c", "（試験）一回目。")
    save(client, "2.4", "ja", "example-c", "（試験）二回目。")
    changes = list(Change.objects.of_text(paragraph("2.4", "example-c"), "ja").order_by("pk"))
    assert [(c.user, c.before, c.after) for c in changes] == [
        (user, "", "（試験）一回目。"),
        (user, "（試験）一回目。", "（試験）二回目。"),
    ]
    assert changes[0].at <= changes[1].at and changes[0].revision < changes[1].revision

    page = client.get("/admin/translate/2.4/history/example-c/").content.decode()
    assert page.count("translator-ja") >= 2
    assert "<time datetime=" in page
    # Each change once, as a diff: read without its additions it is the text before, without its removals the text
    # after.
    assert history_texts(client, "2.4", "example-c", "ja")[:2] == [
        ("（試験）一回目。", "（試験）二回目。"),
        ("", "（試験）一回目。"),
    ]
    assert page.count("（試験）一回目。") == 1  # the first change's text, once; the second's diff splits it


def test_loading_content_files_is_recorded_too(ipg):
    created = Change.objects.of_text(paragraph("2.3", "example-a"), "zh-hans").get()
    assert created.user is None and created.before == "" and created.after == "牌手施放Ancestral Recall之后抓了四张牌。"
    page = client_for(editor()).get("/admin/translate/2.3/history/example-a/").content.decode()
    assert "content files" in page


def test_a_change_is_reverted_and_the_revert_is_itself_recorded(ipg):
    client = client_for(translator("zh-hans"))
    original = paragraph("2.3", "example-b").text_zh_hans
    save(client, "2.3", "zh-hans", "example-b", "（测试）改动。")
    change = Change.objects.of_text(paragraph("2.3", "example-b"), "zh-hans").latest("pk")
    response = client.post(f"/admin/translate/changes/{change.pk}/revert/", follow=True)
    assert response.status_code == 200 and "Reverted" in response.content.decode()
    assert paragraph("2.3", "example-b").text_zh_hans == original
    revert = Change.objects.of_text(paragraph("2.3", "example-b"), "zh-hans").latest("pk")
    assert revert.reverts == change and revert.before == "（测试）改动。" and revert.after == original
    # …and the revert can be undone in turn.
    client.post(f"/admin/translate/changes/{revert.pk}/revert/")
    assert paragraph("2.3", "example-b").text_zh_hans == "（测试）改动。"


def test_note_edits_additions_and_deletions_are_recorded_and_revertible(ipg):
    staff_user = editor()
    staff = client_for(staff_user)
    p = paragraph("2.3", "remedy-2")
    url = f"/admin/ipg/paragraph/{p.pk}/change/"
    note = p.notes.get()
    body = note.body_ja

    data = admin_form_data(staff.get(url))
    data["notes-0-body_ja"] = body + "（試験）"
    assert staff.post(url, data).status_code == 302
    edit = Change.objects.of_text(note, "ja").latest("pk")
    assert edit.user == staff_user and edit.before == body and edit.after == body + "（試験）"

    data = admin_form_data(staff.get(url))
    data["notes-0-DELETE"] = "on"
    assert staff.post(url, data).status_code == 302
    assert not Note.objects.filter(pk=note.pk).exists()
    deleted = Change.objects.filter(paragraph=p, action=Change.Action.DELETE).get()
    assert deleted.before == body + "（試験）" and deleted.note_data["language"] == "ja"

    page = staff.get("/admin/translate/2.3/history/remedy-2/").content.decode()
    assert "note deleted" in page and "Revert: restore this note" in page
    staff.post(f"/admin/translate/changes/{deleted.pk}/revert/")
    restored = p.notes.get()
    assert restored.body_ja == body + "（試験）" and restored.source == "Japanese annotated edition"
    assert Change.objects.filter(paragraph=p, action=Change.Action.ADD, reverts=deleted).exists()


def test_the_history_can_be_read_per_language(ipg):
    client = client_for(editor())
    save(client, "2.4", "ja", "remedy-1", "（試験）日本語。")
    save(client, "2.4", "en", "remedy-1", paragraph("2.4", "remedy-1").text_en + " (test)")
    page = client.get("/admin/translate/2.4/history/remedy-1/?language=ja").content.decode()
    assert "（試験）日本語。" in page and "(test)" not in page
    assert history_texts(client, "2.4", "remedy-1", "ja")[0] == ("", "（試験）日本語。")


def test_a_first_text_is_not_offered_for_revert_since_reverting_it_would_empty_the_text(ipg):
    client = client_for(translator("ja"))
    save(client, "2.4", "ja", "example-c", "（試験）一回目。")
    save(client, "2.4", "ja", "example-c", "（試験）二回目。")
    first, second = Change.objects.of_text(paragraph("2.4", "example-c"), "ja").order_by("pk")
    page = client.get("/admin/translate/2.4/history/example-c/").content.decode()
    assert f'action="/admin/translate/changes/{second.pk}/revert/"' in page
    assert f'action="/admin/translate/changes/{first.pk}/revert/"' not in page
    assert "first text" in page
    # Posted anyway: refused with the reason, and the text stays.
    response = client.post(f"/admin/translate/changes/{first.pk}/revert/", follow=True)
    assert "would empty the text" in response.content.decode()
    assert paragraph("2.4", "example-c").text_ja == "（試験）二回目。"
    # The content files' first import of a text is no different: 2.3's Chinese came with the first load.
    loaded = Change.objects.of_text(paragraph("2.3", "example-a"), "zh-hans").get()
    page = client_for(translator("zh-hans")).get("/admin/translate/2.3/history/example-a/").content.decode()
    assert f"/admin/translate/changes/{loaded.pk}/revert/" not in page
