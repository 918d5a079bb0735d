"""Translators edit only their language's text and notes, enforced on the server; editors edit everything."""

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command

from ipgsite.editing.models import Change
from ipgsite.ipg.models import Note
from people import admin_form_data, client_for, editor, paragraph, person, translate_form, translate_url, translator


@pytest.mark.database  # a data migration, run by each database
def test_a_migration_creates_one_group_per_language_and_the_editors(ipg):
    for code in ("en", "zh-hans", "ja"):
        group = Group.objects.get(name=f"translators-{code}")
        codenames = set(group.permissions.values_list("codename", flat=True))
        assert f"translate_{code.replace('-', '_')}" in codenames
        assert {"change_paragraph", "add_note", "delete_note"} <= codenames
        assert not {"add_paragraph", "delete_paragraph", "edit_structure"} & codenames
        assert not {c for c in codenames if c.startswith("translate_")} - {f"translate_{code.replace('-', '_')}"}
    editors = set(Group.objects.get(name="editors").permissions.values_list("codename", flat=True))
    assert {"translate_en", "translate_zh_hans", "translate_ja", "edit_structure", "delete_paragraph"} <= editors


@pytest.mark.django_db(transaction=True)
def test_after_a_flush_the_groups_have_the_permissions_of_every_app():
    """A migrate or flush creates each app's permissions in the app's own post_migrate: the groups are made after the
    last app's, so editors edit terms and the finder (on a fresh database they could not, until a second migrate)."""
    call_command("flush", interactive=False, verbosity=0)
    editors = Group.objects.get(name="editors")
    for app_label, codename in [("terms", "add_term"), ("finder", "change_outcome"), ("ipg", "add_section")]:
        assert editors.permissions.filter(content_type__app_label=app_label, codename=codename).exists(), codename
    assert Group.objects.get(name="translators-ja").permissions.filter(codename="change_question").exists()


def test_a_translator_opens_their_language_and_is_refused_another(ipg):
    ja = client_for(translator("ja"))
    assert ja.get(translate_url("2.4", "ja")).status_code == 200
    for code in ("en", "zh-hans"):
        response = ja.get(translate_url("2.4", code))
        assert response.status_code == 403
        assert b"translators-" + code.encode() in response.content


def test_a_crafted_post_to_another_languages_translate_page_is_refused(ipg):
    ja_user = translator("ja")
    ja = client_for(ja_user)
    before = paragraph("2.4", "definition-1").text_en
    form = {"p-definition-1-text": "Overwritten by a crafted post.", "p-definition-1-revision": "1", "save": "*"}
    assert ja.post(translate_url("2.4", "en"), form).status_code == 403
    assert paragraph("2.4", "definition-1").text_en == before
    assert not Change.objects.filter(user=ja_user).exists()


def test_the_admin_shows_other_languages_read_only_and_refuses_them_when_posted(ipg):
    ja = client_for(translator("ja"))
    p = paragraph("2.4", "definition-2")
    url = f"/admin/ipg/paragraph/{p.pk}/change/"
    page = ja.get(url)
    html = page.content.decode()
    assert 'name="text_ja"' in html
    assert 'name="text_en"' not in html and 'name="text_zh_hans"' not in html and 'name="key"' not in html
    data = admin_form_data(page)

    for crafted in (
        {"text_en": "Crafted English."},
        {"text_zh_hans": "伪造。"},
        {"key": "crafted"},
        {"part": "upgrade"},
    ):
        response = ja.post(url, {**data, **crafted})
        assert response.status_code == 403, crafted
    p.refresh_from_db()
    assert p.key == "definition-2" and p.part == "definition" and "Crafted" not in p.text_en and not p.text_zh_hans

    response = ja.post(url, {**data, "text_ja": "（試験）日本語だけを保存する。"})
    assert response.status_code == 302
    p.refresh_from_db()
    assert p.text_ja == "（試験）日本語だけを保存する。"


def test_notes_a_translator_edits_only_in_their_language(ipg):
    zh = client_for(translator("zh-hans"))
    p = paragraph("2.3", "example-c")  # one Japanese note
    url = f"/admin/ipg/paragraph/{p.pk}/change/"
    data = admin_form_data(zh.get(url))
    note = p.notes.get()

    # Translating the Japanese note into Chinese is theirs to do.
    response = zh.post(url, {**data, "notes-0-body_zh_hans": "（测试）注释的中文译文。"})
    assert response.status_code == 302
    note.refresh_from_db()
    assert note.body_zh_hans == "（测试）注释的中文译文。"

    # The Japanese body, or deleting the Japanese note, is not.
    assert zh.post(url, {**data, "notes-0-body_ja": "改ざん"}).status_code == 403
    data = admin_form_data(zh.get(url))
    assert zh.post(url, {**data, "notes-0-DELETE": "on"}).status_code == 403
    assert Note.objects.filter(pk=note.pk).exists()

    # A new note in Chinese can be added; one in Japanese cannot.
    new = {
        "notes-TOTAL_FORMS": "2",
        "notes-1-language": "ja",
        "notes-1-source": "test",
        "notes-1-order": "9",
        "notes-1-body_zh_hans": "新",
    }
    response = zh.post(url, {**data, **new})
    assert response.status_code == 200 and "only in your own language" in response.content.decode()
    response = zh.post(url, {**data, **new, "notes-1-language": "zh-hans"})
    assert response.status_code == 302
    assert p.notes.filter(language="zh-hans", body_zh_hans="新").exists()


def test_only_editors_mark_an_english_edit_minor(ipg):
    en = client_for(translator("en"))
    form = translate_form(en, "2.3", "en")
    form.update(
        {
            "p-example-b-text": "A player scries two cards when they should have scried one.",
            "p-example-b-minor": "on",
            "save": "p-example-b",
        }
    )
    assert en.post(translate_url("2.3", "en"), form).status_code == 403
    assert paragraph("2.3", "example-b").text_en == "A player scries two cards when they should only have scried one."
    del form["p-example-b-minor"]
    assert en.post(translate_url("2.3", "en"), form).status_code == 302  # without the flag, an ordinary edit


def test_a_translator_cannot_revert_another_languages_change(ipg):
    staff = client_for(editor())
    form = translate_form(staff, "2.4", "en")
    form.update(
        {"p-remedy-3-text": "Players may continue taking mulligans once the remedy is complete.", "save": "p-remedy-3"}
    )
    assert staff.post(translate_url("2.4", "en"), form).status_code == 302
    change = Change.objects.filter(paragraph=paragraph("2.4", "remedy-3"), language="en").latest("pk")
    ja = client_for(translator("ja"))
    assert ja.post(f"/admin/translate/changes/{change.pk}/revert/").status_code == 403
    assert paragraph("2.4", "remedy-3").text_en.endswith("once the remedy is complete.")


def test_a_crafted_import_of_another_language_saves_nothing(ipg):
    ja = client_for(translator("ja"))
    raw = "Definition\n\nA player makes an error as part of the mulligan process.\n牌手再调度流程的部分出现失误。"
    response = ja.post(
        "/admin/translate/2.4/import/",
        {
            "raw": raw,
            "cjk": "auto",
            "apply": "1",
            "take": ["definition-1:en", "definition-1:ja"],
            "revision-definition-1": "1",
        },
    )
    assert response.status_code == 403
    assert not Change.objects.filter(user__username="translator-ja").exists()


def test_staff_without_a_group_and_non_staff_translators_edit_nothing(ipg):
    nobody = client_for(person("nobody"))
    assert nobody.get(translate_url("2.3", "ja")).status_code == 403
    # Staff status alone opens none of the translators' pages: the dashboard, history and import need a language.
    for url in ("/admin/translate/", "/admin/translate/2.3/history/example-c/", "/admin/translate/2.3/import/"):
        assert nobody.get(url).status_code == 403, url
    outsider = client_for(person("outsider", "translators-ja", staff=False))
    response = outsider.get(translate_url("2.3", "ja"))
    assert response.status_code == 302 and response["Location"].startswith("/admin/login/")


def test_editors_translate_every_language(ipg):
    staff = client_for(editor())
    for code in ("en", "zh-hans", "ja"):
        assert staff.get(translate_url("2.3", code)).status_code == 200


def test_a_translator_cannot_bulk_delete_notes(ipg):
    ja = client_for(translator("ja"))
    response = ja.get("/admin/ipg/note/")
    assert response.status_code == 200 and "delete_selected" not in response.content.decode()
    ids = list(Note.objects.values_list("pk", flat=True)[:3])
    ja.post("/admin/ipg/note/", {"action": "delete_selected", "_selected_action": ids, "post": "yes"})
    assert Note.objects.filter(pk__in=ids).count() == 3
