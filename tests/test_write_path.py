"""The one write path: rights judged by what is stored, never by what is posted; reverts as the reverter's own edit;
every writer cleaned and checked alike; reading a page writes nothing."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from ipgsite.editing.models import Change, State, Status
from ipgsite.ipg.models import Note
from people import admin_form_data, client_for, editor, paragraph, translate_form, translate_url, translator


def change_url(p):
    return f"/admin/ipg/paragraph/{p.pk}/change/"


def add_note_in_admin(client, p, language, body_field, body):
    """Adds a note as the admin's inline does; returns it."""
    data = admin_form_data(client.get(change_url(p)))
    n = int(data["notes-TOTAL_FORMS"])
    data.update(
        {
            "notes-TOTAL_FORMS": str(n + 1),
            f"notes-{n}-language": language,
            f"notes-{n}-source": "test",
            f"notes-{n}-order": "9",
            f"notes-{n}-{body_field}": body,
        }
    )
    response = client.post(change_url(p), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    return Note.objects.get(paragraph=p, **{body_field: body})


def inline_index(data, note):
    return next(key.split("-")[1] for key, value in data.items() if key.endswith("-id") and str(value) == str(note.pk))


# Finding 2: the language a translator may touch is the note's stored language, not the posted one


@pytest.mark.parametrize(
    "crafted",
    [
        {"DELETE": "on"},
        {"body_ja": "乗っ取り"},
        {"source": "taken over"},
        {"order": "1"},
    ],
    ids=["delete", "new-ja-body", "new-source", "new-order"],
)
def test_a_translator_cannot_take_over_another_languages_note_by_posting_their_language(ipg, crafted):
    p = paragraph("2.4", "example-a")
    english = add_note_in_admin(client_for(editor()), p, "en", "body_en", "An English note (test).")
    ja = client_for(translator("ja"))
    data = admin_form_data(ja.get(change_url(p)))
    i = inline_index(data, english)
    data[f"notes-{i}-language"] = "ja"
    data.update({f"notes-{i}-{name}": value for name, value in crafted.items()})
    assert ja.post(change_url(p), data).status_code == 403
    stored = Note.objects.get(pk=english.pk)
    assert (stored.language, stored.source, stored.body_ja, stored.body_en) == (
        "en",
        "test",
        None,
        "An English note (test).",
    )


def test_a_translator_still_deletes_and_edits_their_own_languages_notes(ipg):
    p = paragraph("2.4", "example-a")
    ja = client_for(translator("ja"))
    note = add_note_in_admin(ja, p, "ja", "body_ja", "日本語の注釈(テスト)。")
    data = admin_form_data(ja.get(change_url(p)))
    data[f"notes-{inline_index(data, note)}-body_ja"] = "日本語の注釈(テスト、改訂)。"
    assert ja.post(change_url(p), data).status_code == 302
    assert Note.objects.get(pk=note.pk).body_ja == "日本語の注釈(テスト、改訂)。"
    data = admin_form_data(ja.get(change_url(p)))
    data[f"notes-{inline_index(data, note)}-DELETE"] = "on"
    assert ja.post(change_url(p), data).status_code == 302
    assert not Note.objects.filter(pk=note.pk).exists()


def test_a_translator_cannot_give_their_note_to_another_language(ipg):
    p = paragraph("2.4", "example-a")
    ja = client_for(translator("ja"))
    note = add_note_in_admin(ja, p, "ja", "body_ja", "日本語の注釈(テスト)。")
    data = admin_form_data(ja.get(change_url(p)))
    data[f"notes-{inline_index(data, note)}-language"] = "en"
    assert ja.post(change_url(p), data).status_code == 403
    assert Note.objects.get(pk=note.pk).language == "ja"


def test_the_note_admin_judges_deletion_by_the_stored_language(ipg):
    note = add_note_in_admin(client_for(editor()), paragraph("2.4", "example-a"), "en", "body_en", "English (test).")
    ja = client_for(translator("ja"))
    response = ja.post(f"/admin/ipg/note/{note.pk}/delete/", {"post": "yes", "language": "ja"})
    assert response.status_code == 403
    assert Note.objects.filter(pk=note.pk).exists()


# Finding 3: revert judges a note by its language now


def revert(client, change):
    return client.post(f"/admin/translate/changes/{change.pk}/revert/")


def test_revert_judges_a_note_by_its_language_now_not_when_it_was_added(ipg):
    p = paragraph("2.4", "example-a")
    ja_user = translator("ja")
    note = add_note_in_admin(client_for(ja_user), p, "ja", "body_ja", "日本語の注釈(テスト)。")
    added = Change.objects.get(note=note, action=Change.Action.ADD)

    staff = client_for(editor())
    data = admin_form_data(staff.get(change_url(p)))
    data[f"notes-{inline_index(data, note)}-language"] = "en"
    assert staff.post(change_url(p), data).status_code == 302
    assert Note.objects.get(pk=note.pk).language == "en"

    revert(client_for(ja_user), added)
    assert Note.objects.filter(pk=note.pk).exists(), "a ja translator deleted what is now an English note"


def test_revert_of_a_note_still_in_the_translators_language_deletes_it(ipg):
    ja_user = translator("ja")
    note = add_note_in_admin(client_for(ja_user), paragraph("2.4", "example-a"), "ja", "body_ja", "日本語(テスト)。")
    added = Change.objects.get(note=note, action=Change.Action.ADD)
    assert revert(client_for(ja_user), added).status_code == 302
    assert not Note.objects.filter(pk=note.pk).exists()


# Finding 4: a revert is the reverter's own edit; only an editor's can be minor


def minor_english_edit(staff):
    form = translate_form(staff, "2.3", "en")
    form.update(
        {
            "p-example-b-text": "A player scries two cards when they should have only scried one.",
            "p-example-b-minor": "on",
            "save": "p-example-b",
        }
    )
    assert staff.post(translate_url("2.3", "en"), form).status_code == 302
    change = Change.objects.filter(paragraph=paragraph("2.3", "example-b"), language="en").latest("pk")
    assert change.minor
    assert Status.objects.get(paragraph=change.paragraph, language="ja").state == State.TRANSLATED
    return change


def test_a_translators_revert_of_a_minor_edit_outdates_the_translations(ipg):
    change = minor_english_edit(client_for(editor()))
    assert revert(client_for(translator("en")), change).status_code == 302
    reverted = Change.objects.filter(reverts=change).get()
    assert not reverted.minor
    for code in ("zh-hans", "ja"):
        assert Status.objects.get(paragraph=change.paragraph, language=code).state == State.OUTDATED


def test_an_editors_revert_of_a_minor_edit_stays_minor(ipg):
    staff = client_for(editor())
    change = minor_english_edit(staff)
    assert revert(staff, change).status_code == 302
    assert Change.objects.filter(reverts=change).get().minor
    assert Status.objects.get(paragraph=change.paragraph, language="ja").state == State.TRANSLATED


# Every writer cleans alike: the admin too


@pytest.mark.database  # PostgreSQL refuses a NUL and enforces lengths
@pytest.mark.parametrize("text", ["NUL\x00inside", "長" * 20_001], ids=["nul", "too-long"])
def test_the_admin_refuses_what_the_translate_page_refuses(ipg, text):
    p = paragraph("2.4", "definition-2")
    ja = client_for(translator("ja"))
    data = admin_form_data(ja.get(change_url(p)))
    data["text_ja"] = text
    response = ja.post(change_url(p), data)
    assert response.status_code == 200 and "errornote" in response.content.decode()
    assert paragraph("2.4", "definition-2").text_ja == p.text_ja


# Reading writes nothing


@pytest.mark.parametrize(
    "url",
    [
        "/en/",
        "/ja/ipg/2.3/",
        "/zh-hans/ipg/2.4/?langs=zh-hans,en",
        "/en/search/?q=Dark+Confidant",
        "/ja/search/?q=占卜",
        "/api/ipg/2.3/",
        "/en/penalties/",
        "/ja/ipg/2.3/example-c/",
        "/zh-hans/list/?p=2.3:example-c&p=2.4:definition-1&p=9.9:x&langs=zh-hans,en",
        "/en/quiz/",
        "/ja/quiz/?seed=5&a=2.3",
        "/ja/glossary/",
    ],
)
def test_reading_a_page_writes_nothing_to_the_database(client, ipg, url):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code in (200, 302)
    writes = [q["sql"] for q in queries if q["sql"].lstrip().split()[0].upper() in ("INSERT", "UPDATE", "DELETE")]
    assert writes == []


# The only way: a paragraph or note saved or deleted any other way is refused


def test_a_paragraph_or_note_saved_or_deleted_outside_the_write_path_is_refused(ipg):
    from ipgsite.editing.writing import OutsideTheWritePath

    p = paragraph("2.3", "example-c")
    p.text_ja = "直接の書き換え"
    with pytest.raises(OutsideTheWritePath):
        p.save()
    note = p.notes.first()
    with pytest.raises(OutsideTheWritePath), transaction.atomic():
        note.delete()
    with pytest.raises(OutsideTheWritePath), transaction.atomic():
        Note.objects.create(paragraph=p, language="ja", source="test", order=5, body_ja="直接")
    fresh = paragraph("2.3", "example-c")
    assert fresh.text_ja != "直接の書き換え" and fresh.notes.count() == p.notes.count()


def test_a_write_through_the_write_path_is_recorded_and_followed(client, ipg):
    from edits import write

    before = paragraph("2.3", "example-b")
    after = write("2.3", "example-b", "en", before.text_en + " (test)")
    assert after.revision == before.revision + 1
    change = Change.objects.filter(paragraph=after, language="en").latest("pk")
    assert (change.before, change.after, change.revision, change.user) == (
        before.text_en,
        after.text_en,
        after.revision,
        None,
    )
    assert Status.objects.get(paragraph=after, language="zh-hans").state == State.OUTDATED
    assert "(test)" in client.get("/en/ipg/2.3/").content.decode()


@pytest.mark.parametrize(
    "url", ["/admin/translate/", "/admin/translate/2.3/ja/", "/admin/translate/2.3/history/example-c/"]
)
def test_reading_the_translators_pages_writes_nothing_either(ipg, url):
    staff = client_for(editor())
    with CaptureQueriesContext(connection) as queries:
        assert staff.get(url).status_code == 200
    writes = [q["sql"] for q in queries if q["sql"].lstrip().split()[0].upper() in ("INSERT", "UPDATE", "DELETE")]
    # The session's last-seen update is Django's own; nothing of the content or its statuses is written.
    assert [w for w in writes if "django_session" not in w] == []
