"""No lost updates: the second of two concurrent saves is refused and both versions are shown."""

import os
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
from django.apps import apps
from django.db import connection, connections, transaction
from django.test import Client

from ipgsite.editing.groups import ensure_groups
from ipgsite.editing.models import Change, WriteLock
from ipgsite.terms.models import Occurrence, Term
from ipgsite.terms.occurrences import rebuild_occurrences
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


# Saves at the same moment, each in its own thread with its own database connection (committed, as on a server).


def at_once(*posts):
    """Send each post ((client, url, data)) from its own thread, all released together; their responses."""
    barrier = threading.Barrier(len(posts))
    responses = [None] * len(posts)

    def send(index, client, url, data):
        try:
            barrier.wait(timeout=30)
            responses[index] = client.post(url, data)
        finally:
            connection.close()  # this thread's own connection

    threads = [threading.Thread(target=send, args=(i, *post)) for i, post in enumerate(posts)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert all(response is not None for response in responses), "a save never answered"
    return responses


def server_client(user):
    """A client that answers a server error with a 500, as a browser sees it, rather than raising."""
    client = Client(raise_request_exception=False)
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def term_form(client, key):
    url = f"/admin/terms/term/{Term.objects.get(key=key).pk}/change/"
    return url, admin_form_data(client.get(url))


def occurrences():
    return Counter(Occurrence.objects.values_list("term_id", "paragraph_id", "note_id", "language", "text", "nth"))


def assert_occurrences_are_those_of_the_stored_text():
    """What the saves left in terms_occurrence is what finding every term again in the stored text gives."""
    left = occurrences()
    with transaction.atomic():
        rebuild_occurrences()
        found = occurrences()
        transaction.set_rollback(True)
    assert left == found


ON_POSTGRES = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="SQLite's in-memory test database shares one cache between threads, which refuses a second writer at once "
    "('database table is locked') where a database file makes it wait: run with DATABASE_URL=postgres://…",
)


@pytest.fixture
def committed(transactional_db):
    """A database whose writes commit, as a server's do, with the translators' groups and their permissions (a flush
    after the previous transactional test recreated the groups before every app's permissions were back)."""
    ensure_groups(apps)


@ON_POSTGRES
def test_two_term_saves_at_once_are_both_saved(committed):
    first, second = server_client(translator("ja", "first")), server_client(translator("ja", "second"))
    for round, (hand, library) in enumerate([("（試験）手", "（試験）書庫"), ("手札", "ライブラリー")] * 2):
        hand_url, hand_data = term_form(first, "hand")
        library_url, library_data = term_form(second, "library")
        hand_data["name_ja"], library_data["name_ja"] = hand, library
        responses = at_once((first, hand_url, hand_data), (second, library_url, library_data))
        assert [r.status_code for r in responses] == [302, 302], round
        assert (Term.objects.get(key="hand").name_ja, Term.objects.get(key="library").name_ja) == (hand, library)
        assert_occurrences_are_those_of_the_stored_text()


@ON_POSTGRES
def test_a_term_save_beside_a_save_on_the_translate_page_are_both_saved(committed):
    terms, pages = server_client(translator("ja", "terms")), server_client(translator("ja", "pages"))
    names = ["（試験）手", "手札"] * 3
    for round, name in enumerate(names):
        hand_url, hand_data = term_form(terms, "hand")
        hand_data["name_ja"] = name
        page = translate_form(pages, "2.3", "ja")
        text = f"（試験）{round}回目：手札とライブラリーを確認する。"
        page.update({"p-example-a-text": text, "save": "p-example-a"})
        term_response, page_response = at_once((terms, hand_url, hand_data), (pages, translate_url("2.3", "ja"), page))
        assert (term_response.status_code, page_response.status_code) == (302, 302), round
        assert Term.objects.get(key="hand").name_ja == name
        assert paragraph("2.3", "example-a").text_ja == text
        assert_occurrences_are_those_of_the_stored_text()


@ON_POSTGRES
def test_a_save_that_waits_too_long_for_another_is_told_so_and_saves_nothing(ipg):
    importing = connections.create_connection("default")  # another process's connection, in the middle of an import
    try:
        with importing.cursor() as cursor, connection.cursor() as ours:
            cursor.execute("BEGIN")
            cursor.execute(
                "INSERT INTO translations_writelock (id) VALUES (%s) ON CONFLICT DO NOTHING", [WriteLock.ONE]
            )
            cursor.execute("SELECT id FROM translations_writelock WHERE id = %s FOR UPDATE", [WriteLock.ONE])
            ours.execute("SET lock_timeout = '1s'")  # rather than the 20 s a writer waits
            client = client_for(translator("ja"))
            form = translate_form(client, "2.4", "ja")
            form.update({"p-example-a-text": "（試験）待ちきれない。", "save": "p-example-a"})
            response = client.post(translate_url("2.4", "ja"), form)
            cursor.execute("ROLLBACK")
    finally:
        importing.close()
    assert response.status_code == 503 and response["Retry-After"]
    assert "Nothing of yours was saved" in response.content.decode()
    assert ">（試験）待ちきれない。</textarea>" in response.content.decode()  # the page again, the text in its field
    assert not paragraph("2.4", "example-a").text_ja


SAVER = Path(__file__).resolve().parent / "concurrent_saver.py"


@pytest.mark.skipif(connection.vendor != "sqlite", reason="the same saves on SQLite, in a database file")
def test_on_sqlite_a_term_save_and_a_page_save_at_once_in_two_processes_are_both_saved(committed, tmp_path):
    """SQLite as `make serve` and a small deployment run it: a database file, one process per request. Each save
    begins its transaction with the write lock (IMMEDIATE), so the second waits for the first instead of failing
    with "database is locked"."""
    translator("ja", "terms"), translator("ja", "pages")
    database = tmp_path / "ipg.sqlite3"
    target = sqlite3.connect(database)
    connection.ensure_connection()
    connection.connection.backup(target)  # the test database, content and translators, committed, as a file
    target.close()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "DJANGO_SETTINGS_MODULE": "ipgsite.test_settings"}
    for round in range(3):
        folder = tmp_path / f"round-{round}"
        folder.mkdir()
        savers = [
            subprocess.Popen([sys.executable, str(SAVER), str(folder), who], env=env, stdout=subprocess.PIPE, text=True)
            for who in ("terms", "pages")
        ]
        while not all((folder / f"ready-{who}").exists() for who in ("terms", "pages")):
            assert all(saver.poll() is None for saver in savers), "a saver stopped before saving"
            time.sleep(0.05)
        (folder / "go").touch()
        answers = [saver.communicate(timeout=120)[0].split() for saver in savers]
        assert answers == [["302"], ["302"]], round
        stored = sqlite3.connect(database)
        name = stored.execute("SELECT name_ja FROM terms_term WHERE key = 'hand'").fetchone()[0]
        stored.close()
        assert name == "（試験）手"
        if round < 2:  # back to the content's name, so that the next round saves a change again
            restore = sqlite3.connect(database)
            restore.execute("UPDATE terms_term SET name_ja = '手札' WHERE key = 'hand'")
            restore.execute(
                "UPDATE ipg_paragraph SET text_ja = '' WHERE key = 'example-a' AND section_id = "
                "(SELECT id FROM ipg_section WHERE number = '2.3')"
            )
            restore.commit()
            restore.close()
