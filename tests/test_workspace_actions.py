"""The workspace's actions, each through the real database: `check()` refuses with a reason a person can read (and the
HTTP status that says it) and writes nothing; `execute()` does the thing, through the write path."""

import pytest
from django.db import connection, connections

from edits import write
from ipgsite.editing import writing
from ipgsite.editing.models import Change, State, Status, WriteLock
from ipgsite.ipg.models import Note
from ipgsite.workspace.actions import (
    Busy,
    ConfirmTranslation,
    Conflicting,
    Document,
    ImportDocument,
    NotAllowed,
    NothingToDo,
    Refused,
    Revert,
    ReviewTranslation,
    SaveTexts,
    SaveTranslation,
    chosen_rows,
)
from people import editor, paragraph, person, translator


def status(number, key, code):
    return Status.objects.get(paragraph=paragraph(number, key), language=code)


def refusal(action):
    """The refusal of `action.execute()`, which must refuse."""
    with pytest.raises(Refused) as raised:
        action.execute()
    return raised.value


# Saving


def test_save_translation_writes_through_the_write_path_with_history(ipg):
    ja = translator("ja")
    p = paragraph("2.4", "definition-1")
    save = SaveTranslation(ja, p, "ja", "（試験）定義。", p.revision)
    save.check()
    assert save.execute() is True
    assert paragraph("2.4", "definition-1").text_ja == "（試験）定義。"
    assert Change.objects.of_text(p, "ja").get().user == ja
    assert status("2.4", "definition-1", "ja").state == State.TRANSLATED
    # The same text again: nothing to write.
    p = paragraph("2.4", "definition-1")
    assert SaveTranslation(ja, p, "ja", "（試験）定義。", p.revision).execute() is False


def test_save_translation_refuses_another_language_a_bad_text_and_a_lost_update(ipg):
    ja, p = translator("ja"), paragraph("2.4", "definition-1")
    denied = refusal(SaveTranslation(ja, p, "zh-hans", "改写。", p.revision))
    assert isinstance(denied, NotAllowed) and denied.status == 403 and "translators-zh-hans" in denied.message
    bad = refusal(SaveTranslation(ja, p, "ja", "NUL\x00", p.revision))
    assert bad.status == 400 and "NUL" in bad.message
    stale = p.revision
    write("2.4", "definition-1", "ja", "（試験）先に保存。")  # someone else, after the page was opened
    conflict = refusal(SaveTranslation(ja, paragraph("2.4", "definition-1"), "ja", "（試験）後から。", stale))
    assert isinstance(conflict, Conflicting) and conflict.status == 409
    assert (conflict.yours, conflict.theirs) == ("（試験）後から。", "（試験）先に保存。")
    assert paragraph("2.4", "definition-1").text_ja == "（試験）先に保存。"
    assert not Change.objects.filter(user=ja).exists()


def test_save_texts_saves_each_text_or_refuses_it_on_its_own(ipg):
    ja = translator("ja")
    first, second = paragraph("2.4", "remedy-2"), paragraph("2.4", "remedy-3")
    stale = first.revision
    write("2.4", "remedy-2", "ja", "（試験）先に保存。")
    saves = [
        SaveTranslation(ja, paragraph("2.4", "remedy-2"), "ja", "（試験）後から。", stale),
        SaveTranslation(ja, second, "ja", "（試験）別の段落。", second.revision),
    ]
    results = SaveTexts(ja, "ja", saves).execute()
    assert isinstance(results[saves[0]], Conflicting) and results[saves[1]] is True
    assert paragraph("2.4", "remedy-3").text_ja == "（試験）別の段落。"
    assert paragraph("2.4", "remedy-2").text_ja == "（試験）先に保存。"


def test_save_texts_in_a_language_not_the_users_saves_nothing(ipg):
    ja, p = translator("ja"), paragraph("2.4", "definition-1")
    action = SaveTexts(ja, "en", [SaveTranslation(ja, p, "en", "Overwritten.", p.revision)])
    assert isinstance(refusal(action), NotAllowed)
    assert paragraph("2.4", "definition-1").text_en != "Overwritten."


@pytest.mark.database
@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's lock_timeout; SQLite waits in one file")
def test_a_save_that_waits_too_long_for_the_write_lock_is_refused_busy(ipg):
    ja, p = translator("ja"), paragraph("2.4", "example-a")
    importing = connections.create_connection("default")  # another process, in the middle of an import
    try:
        with importing.cursor() as cursor, connection.cursor() as ours:
            cursor.execute("BEGIN")
            cursor.execute(
                "INSERT INTO translations_writelock (id) VALUES (%s) ON CONFLICT DO NOTHING", [WriteLock.ONE]
            )
            cursor.execute("SELECT id FROM translations_writelock WHERE id = %s FOR UPDATE", [WriteLock.ONE])
            ours.execute("SET lock_timeout = '1s'")
            busy = refusal(SaveTexts(ja, "ja", [SaveTranslation(ja, p, "ja", "（試験）待つ。", p.revision)]))
            cursor.execute("ROLLBACK")
    finally:
        importing.close()
    assert isinstance(busy, Busy) and busy.status == 503 and "Nothing of yours was saved" in busy.message
    assert not paragraph("2.4", "example-a").text_ja


# Confirming and reviewing


def test_confirm_translation_makes_an_outdated_translation_current(ipg):
    zh = translator("zh-hans")
    before = paragraph("2.3", "example-b").text_en
    write("2.3", "example-b", "en", before.replace("two cards", "three cards"))
    confirm = ConfirmTranslation(zh, paragraph("2.3", "example-b"), "zh-hans")
    confirm.check()
    confirmed = confirm.execute()
    assert confirmed.state == State.TRANSLATED and confirmed.confirmed_by == zh
    assert confirmed.confirmed_source == paragraph("2.3", "example-b").text_en
    # Not outdated (any more): nothing to do, said as such, not as an error.
    again = refusal(ConfirmTranslation(zh, paragraph("2.3", "example-b"), "zh-hans"))
    assert isinstance(again, NothingToDo) and again.status == 200 and "nothing to confirm" in again.message
    # Another language's translation is not theirs to confirm.
    assert isinstance(refusal(ConfirmTranslation(zh, paragraph("2.3", "upgrade-1"), "ja")), NotAllowed)
    assert status("2.3", "upgrade-1", "ja").state == State.OUTDATED


def test_review_translation_is_for_someone_other_than_its_translator(ipg):
    writer, reviewer = translator("ja", "writer"), translator("ja", "reviewer")
    p = paragraph("2.4", "example-a")
    SaveTranslation(writer, p, "ja", "（試験）訳。", p.revision).execute()
    own = ReviewTranslation(writer, paragraph("2.4", "example-a"), "ja")
    assert not own.allowed()
    assert isinstance(refusal(own), NotAllowed) and status("2.4", "example-a", "ja").state == State.TRANSLATED
    other = ReviewTranslation(reviewer, paragraph("2.4", "example-a"), "ja")
    assert other.allowed()
    assert other.execute().state == State.REVIEWED
    # An editor may review their own; nobody reviews a missing translation, or the English itself.
    staff = editor()
    q = paragraph("2.4", "example-b")
    SaveTranslation(staff, q, "ja", "（試験）編集者の訳。", q.revision).execute()
    assert ReviewTranslation(staff, paragraph("2.4", "example-b"), "ja").allowed()
    missing = refusal(ReviewTranslation(reviewer, paragraph("2.4", "example-c"), "ja"))
    assert missing.status == 400 and "Only a current translation" in missing.message
    assert not ReviewTranslation(staff, paragraph("2.4", "example-c"), "en").allowed()


# Reverting


def test_revert_undoes_a_change_as_a_change_of_its_own(ipg):
    zh = translator("zh-hans")
    p = paragraph("2.3", "example-b")
    original = p.text_zh_hans
    SaveTranslation(zh, p, "zh-hans", "（测试）改动。", p.revision).execute()
    change = Change.objects.of_text(p, "zh-hans").latest("pk")
    revert = Revert(zh, change)
    revert.check()
    revert.execute()
    assert paragraph("2.3", "example-b").text_zh_hans == original
    assert Change.objects.of_text(p, "zh-hans").latest("pk").reverts == change


def test_revert_of_a_first_text_is_refused_for_it_would_empty_the_text(ipg):
    ja = translator("ja")
    p = paragraph("2.4", "definition-1")
    SaveTranslation(ja, p, "ja", "（試験）最初の訳。", p.revision).execute()
    first = Change.objects.of_text(p, "ja").get()
    assert first.before == ""
    revert = Revert(ja, first)
    assert not revert.allowed()
    refused = refusal(revert)
    assert refused.status == 400 and "would empty the text" in refused.message
    assert paragraph("2.4", "definition-1").text_ja == "（試験）最初の訳。"
    # The content files' first import of a text is such a change too.
    loaded = Change.objects.of_text(paragraph("2.3", "example-a"), "zh-hans").get()
    assert loaded.user is None and not Revert(translator("zh-hans"), loaded).allowed()


def test_revert_judges_the_language_as_the_write_will(ipg):
    ja, zh = translator("ja"), translator("zh-hans")
    p = paragraph("2.3", "example-b")
    SaveTranslation(ja, p, "ja", "（試験）変更。", p.revision).execute()
    change = Change.objects.of_text(p, "ja").latest("pk")
    denied = refusal(Revert(zh, change))
    assert isinstance(denied, NotAllowed) and "translators-ja" in denied.message
    assert paragraph("2.3", "example-b").text_ja == "（試験）変更。"
    # A note added in Japanese and moved to English since: reverting its addition takes the English right.
    note = writing.add_note(p, language="ja", source="Test", order=9, bodies={"ja": "注釈(試験)。"}, by=ja)
    added = Change.objects.get(note=note, action=Change.Action.ADD)
    writing.change_note(note, by=editor(), language="en")
    assert isinstance(refusal(Revert(ja, Change.objects.get(pk=added.pk))), NotAllowed)
    assert Note.objects.filter(pk=note.pk).exists()


# Importing


SECTION_2_4 = "Definition\n\nA player makes an error as part of the mulligan process.\n牌手再调度流程的部分出现失误。"


def test_import_document_proposes_without_writing_then_writes_the_ticked_rows(ipg):
    zh = translator("zh-hans")
    p = paragraph("2.4", "definition-1")
    p = write("2.4", "definition-1", "zh-hans", "")
    shown = {"revision-1-definition-1": str(p.revision)}  # the revision the page showed beside the row
    action = ImportDocument(
        zh, p.section, Document(document_blocks(SECTION_2_4)), taken=["definition-1:zh-hans"], posted=shown
    )
    found, problems = action.propose()
    assert problems == [] and [row.key for row in found[0].rows] == ["definition-1"]
    assert paragraph("2.4", "definition-1").text_zh_hans is None  # a proposal writes nothing
    imported = action.execute()
    assert imported.written == [("2.4", "definition-1", "zh-hans", "text")] and not imported.skipped
    assert paragraph("2.4", "definition-1").text_zh_hans == "牌手再调度流程的部分出现失误。"
    assert Change.objects.of_text(p, "zh-hans").latest("pk").user == zh


def test_import_document_refuses_a_conflict_and_another_language_writing_nothing(ipg):
    ja, zh = translator("ja"), translator("zh-hans")
    section = paragraph("2.4", "definition-1").section
    document = Document(document_blocks(SECTION_2_4))
    denied = refusal(ImportDocument(ja, section, document, taken=["definition-1:zh-hans"]))
    assert isinstance(denied, NotAllowed)
    # The revision the page showed, and someone's save since: 409, nothing imported.
    shown = paragraph("2.4", "definition-1").revision
    write("2.4", "definition-1", "zh-hans", "（测试）别人先保存。")
    conflict = refusal(
        ImportDocument(
            zh, section, document, taken=["definition-1:zh-hans"], posted={"revision-1-definition-1": str(shown)}
        )
    )
    assert isinstance(conflict, Conflicting) and conflict.status == 409 and "Nothing was imported." in conflict.message
    assert paragraph("2.4", "definition-1").text_zh_hans == "（测试）别人先保存。"
    # Staff who translate no language may not import at all.
    assert isinstance(refusal(ImportDocument(person("nobody"), section, document)), NotAllowed)


def test_chosen_rows_reads_the_import_pages_form(ipg):
    zh = translator("zh-hans")
    section = paragraph("2.4", "definition-1").section
    found, _problems = ImportDocument(zh, section, Document(document_blocks(SECTION_2_4))).propose()
    batches, revisions = chosen_rows(
        found, ["definition-1:zh-hans", "9:definition-1:ja"], {"revision-1-definition-1": "7"}
    )
    assert [(proposal.number, taken) for proposal, taken in batches] == [("2.4", {"definition-1:zh-hans"})]
    assert revisions == {"2.4:definition-1": 7}


def document_blocks(text):
    from ipgsite import documents

    return documents.read_text(text)
