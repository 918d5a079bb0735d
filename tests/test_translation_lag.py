"""Translation lag shown to readers: a translation that follows an older English is marked inside its
paragraph, in the reader's language; statuses and what each translation follows live in content/, a paragraph's
and a note's."""

import shutil
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from edits import add_note, write, write_note
from ipgsite.caching.versions import content_changed
from ipgsite.editing import writing
from ipgsite.editing.models import State, Status
from ipgsite.editing.statuses import confirm, mark_reviewed
from ipgsite.ipg.models import Chapter, Note, Section
from ipgsite.releases.models import Release
from pages import parse
from people import CONTENT, client_for, editor, paragraph, translate_form, translate_url, translator

FIRST = "2024-09-23"


def marks(client, url):
    """{paragraph key: [each lag mark in the paragraph]} (not in its notes: note_marks)."""
    page = parse(client.get(url).content.decode())
    found = {}
    for row in page.find_all("div", class_="row"):
        for mark in row.find_all("div", class_="lag"):
            found.setdefault(row.attrs["id"], []).append(mark)
    return found


def note_marks(client, url):
    """{paragraph key: [each lag mark in the notes shown after it]}."""
    page = parse(client.get(url).content.decode())
    found, key = {}, None
    for element in page.iter():
        if "row" in element.classes:
            key = element.attrs["id"]
        elif element.tag == "aside" and "note" in element.classes:
            assert element.find("p", class_="note-source") is not None, "a note says it is not official text"
            found.setdefault(key, []).extend(element.find_all("div", class_="lag"))
    return {key: found_marks for key, found_marks in found.items() if found_marks}


@pytest.mark.parametrize(
    "lang, html_lang, words, lagging",
    [("ja", "ja", "古い英語", ["remedy-5", "upgrade-1"]), ("zh-hans", "zh-Hans", "旧版英文", ["upgrade-1"])],
)
def test_the_seeds_translations_that_lack_english_sentences_say_they_follow_an_older_english(
    client, ipg, lang, html_lang, words, lagging
):
    # The Japanese upgrade-1 names only morph; its remedy-5 lacks "that many cards, chosen by the opponent, are
    # returned" (seed 001:48); the Chinese upgrade-1 lacks "printed on the card" and "before an effect that would
    # reveal it is played" (seed 000:68-69). Every other paragraph of 2.3 says what its English says.
    found = marks(client, f"/{lang}/ipg/2.3/")
    assert sorted(found) == lagging
    for key in lagging:
        mark = found[key][0]
        assert mark.attrs["lang"] == html_lang and words in mark.text()
        assert mark.find("details") is None, "its older English is unknown: no diff is offered"
        assert Status.objects.get(paragraph=paragraph("2.3", key), language=lang).state == State.OUTDATED


@pytest.mark.parametrize("url", ["/en/ipg/2.3/", "/zh-hans/ipg/2.4/", "/ja/ipg/2.1/"])
def test_translations_that_follow_the_current_english_carry_no_mark(client, ipg, url):
    assert marks(client, url) == {}


def test_an_english_edit_marks_both_translations_with_the_release_they_follow_and_the_diff(client, ipg):
    before = paragraph("2.3", "example-b").text_en
    write("2.3", "example-b", "en", before.replace("two cards", "three cards"))
    for lang, words in (("ja", f"{FIRST}"), ("zh-hans", f"{FIRST}"), ("en", "follows the English of the IPG of")):
        url = f"/{lang}/ipg/2.3/" + ("?langs=en,ja" if lang == "en" else "")
        found = marks(client, url)
        assert "example-b" in found, (lang, list(found))
        mark = found["example-b"][0]
        assert words in mark.text()
        diff = mark.find("p", class_="diff")
        assert diff.attrs["lang"] == "en"
        assert [d.text() for d in diff.find_all("del")] == ["two"] and [i.text() for i in diff.find_all("ins")] == [
            "three"
        ]


def test_confirming_the_translation_removes_its_mark_and_only_its(client, ipg):
    before = paragraph("2.3", "example-b").text_en
    write("2.3", "example-b", "en", before.replace("two cards", "three cards"))
    ja = client_for(translator("ja"))
    form = translate_form(ja, "2.3", "ja")
    assert ja.post(translate_url("2.3", "ja"), {**form, "confirm": "p-example-b"}).status_code == 302
    assert "example-b" not in marks(client, "/ja/ipg/2.3/")
    assert "example-b" in marks(client, "/zh-hans/ipg/2.3/")


def test_what_each_translation_follows_survives_export_and_load(ipg, tmp_path):
    content = tmp_path / "content"
    shutil.copytree(CONTENT, content)
    before = paragraph("2.3", "example-b").text_en
    write("2.3", "example-b", "en", before.replace("two cards", "three cards"))
    call_command("exportcontent", str(content), stdout=StringIO())
    text = (content / "sections" / "2.3.toml").read_text()
    assert f'follows = {{ zh-hans = "{FIRST}", ja = "{FIRST}" }}' in text
    assert 'follows = { ja = "unknown" }' in text

    # A fresh load of those files gives the same statuses, and the same bytes back.
    Status.objects.all().delete()
    # The statuses wiped by other means than the write path: a change the load would overwrite, so it is told to.
    call_command("loadcontent", str(content), "--discard-edits", stdout=StringIO())
    for code in ("zh-hans", "ja"):
        status = Status.objects.get(paragraph=paragraph("2.3", "example-b"), language=code)
        assert (status.state, status.confirmed_source) == (State.OUTDATED, before)
    again = tmp_path / "again"
    shutil.copytree(content, again)
    call_command("exportcontent", str(again), stdout=StringIO())
    assert (again / "sections" / "2.3.toml").read_bytes() == (content / "sections" / "2.3.toml").read_bytes()


@pytest.mark.parametrize(
    "line, message",
    [
        ('follows = { en = "unknown" }', "not a translation it has"),
        ('follows = { ja = "last year" }', "must be a release date"),
        ("follows = { ja = 2024 }", "must be a release date"),
        ('follows = { ja = "2020-01-01" }', "no release of which holds its English"),
        ('reviewed = ["ja", "ja"]', "each once"),
        ('reviewed = ["en"]', "not a current translation"),
    ],
)
def test_a_wrong_status_in_content_is_refused_and_nothing_is_loaded(ipg, tmp_path, line, message):
    content = tmp_path / "content"
    shutil.copytree(CONTENT, content)
    path = content / "sections" / "2.3.toml"
    text = path.read_text().replace('follows = { zh-hans = "unknown", ja = "unknown" }', line)
    path.write_text(text)
    status = Status.objects.get(paragraph=paragraph("2.3", "upgrade-1"), language="ja")
    with pytest.raises(CommandError, match=message):
        call_command("loadcontent", str(content), stdout=StringIO())
    assert Status.objects.get(pk=status.pk).state == State.OUTDATED
    err = StringIO()
    with pytest.raises(CommandError, match="structural error"):
        call_command("checkcontent", str(content), stdout=StringIO(), stderr=err)
    assert f"error: {path}:" in err.getvalue() and "paragraph 'upgrade-1': " in err.getvalue()
    assert message in err.getvalue()


def test_translators_see_what_each_outdated_translation_follows(ipg):
    before = paragraph("2.3", "example-b").text_en
    write("2.3", "example-b", "en", before.replace("two cards", "three cards"))
    staff = client_for(editor())
    dashboard = staff.get("/admin/translate/").content.decode()
    line = parse(dashboard).find("p", class_="tr-following-older").text()
    # ja: upgrade-1 and remedy-5 (unknown English) and example-b; zh-hans: upgrade-1 and example-b
    assert "日本語 3" in line and "简体中文 2" in line

    page = parse(staff.get(translate_url("2.3", "ja")).content.decode())
    outdated = {div.parent.attrs.get("id"): div.text() for div in page.find_all("div", class_="tr-outdated")}
    texts = " ".join(outdated.values())
    assert f"follows the English of the IPG of {FIRST}" in texts
    assert "follows an older English text, which this site does not hold" in texts
    diffs = page.find_all("p", class_="tr-diff")
    assert len(diffs) == 1 and [d.text() for d in diffs[0].find_all("del")] == ["two"]


# Notes: a note's translations follow its original (its text in the language it was written in), and what each
# follows, and whether it was reviewed, live in content/ under the note as a paragraph's do under the paragraph.


def notes_on(number, key):
    return list(Note.objects.filter(paragraph__section__number=number, paragraph__key=key).order_by("order", "pk"))


def note_status(note, code):
    return Status.of_notes.get(note=note, language=code)


def with_note(text, key, place, texts=(), statuses=()):
    """The section file's text with `texts` (lines like 'en = "…"', before its other texts) and `statuses` (after
    them) added to the `place`-th note on paragraph `key`, where the file writes them."""
    start = -1
    for _ in range(place):
        start = text.index(f'[[notes]]\nparagraph = "{key}"\n', start + 1)
    source = text.index("\nsource = ", start)
    after_source = text.index("\n", source + 1)
    end = text.index("\n\n[[", start)
    return (
        text[:after_source]
        + "".join(f"\n{line}" for line in texts)
        + text[after_source:end]
        + "".join(f"\n{line}" for line in statuses)
        + text[end:]
    )


def empty_the_database():
    """No section, chapter or release: what a fresh machine starts from."""
    with writing.batch(writing.CONTENT_FILES):
        for section in Section.objects.all():
            writing.delete(section, by=writing.CONTENT_FILES)
        for chapter in Chapter.objects.all():
            writing.delete(chapter, by=writing.CONTENT_FILES)
    Release.objects.all().delete()
    assert not Status.of_notes.exists() and not Note.objects.exists()


def test_outdated_and_reviewed_note_translations_survive_export_and_a_load_into_an_empty_database(ipg, tmp_path):
    first, second = notes_on("2.3", "definition-1")[:2]
    original = first.body_in("ja")
    write_note(first, "en", "The note in English, for this test.")
    write_note(first, "ja", original + "追記。")
    write_note(second, "zh-hans", "这条注释的中文,用于测试。")
    mark_reviewed(Note.objects.get(pk=second.pk), "zh-hans", editor())
    assert note_status(first, "en").state == State.OUTDATED and note_status(second, "zh-hans").state == State.REVIEWED

    content = tmp_path / "content"
    shutil.copytree(CONTENT, content)
    call_command("exportcontent", str(content), stdout=StringIO())
    text = (content / "sections" / "2.3.toml").read_text()
    assert (
        f'en = "The note in English, for this test."\nja = "{original}追記。"\nfollows = {{ en = "{FIRST}" }}\n' in text
    )
    assert 'zh-hans = "这条注释的中文,用于测试。"\nja = """' in text and '"""\nreviewed = ["zh-hans"]\n' in text
    assert text.count("follows = ") == 3 and text.count("reviewed = ") == 1  # and upgrade-1's and remedy-5's own

    empty_the_database()
    call_command("loadcontent", str(content), stdout=StringIO())
    first, second = notes_on("2.3", "definition-1")[:2]
    status = note_status(first, "en")
    assert (status.state, status.confirmed_source) == (State.OUTDATED, original)
    assert note_status(second, "zh-hans").state == State.REVIEWED
    assert note_status(first, "zh-hans").state == State.MISSING and note_status(second, "en").state == State.MISSING

    # Translators see which release's original it follows, and what changed since.
    page = parse(client_for(translator("en")).get(translate_url("2.3", "en")).content.decode())
    outdated = page.find("div", id=f"note-{first.pk}").find("div", class_="tr-outdated")
    assert f"follows the note's original in the release of {FIRST}" in outdated.text()
    diff = outdated.find("p", class_="tr-diff")
    assert diff.attrs["lang"] == "ja" and [i.text() for i in diff.find_all("ins")] == ["追記。"]

    again = tmp_path / "again"
    shutil.copytree(content, again)
    call_command("exportcontent", str(again), stdout=StringIO())
    for name in ("sections/2.3.toml", f"releases/{FIRST}.toml"):
        assert (again / name).read_bytes() == (content / name).read_bytes(), name


def test_note_statuses_written_in_a_file_by_hand_are_loaded_and_shown_to_translators(ipg, tmp_path):
    content = tmp_path / "content"
    shutil.copytree(CONTENT, content)
    path = content / "sections" / "2.3.toml"
    text = with_note(path.read_text(), "definition-1", 1, ['en = "An English note."'], ['follows = { en = "unknown" }'])
    text = with_note(text, "example-c", 1, ['zh-hans = "一条中文注释。"'], ['reviewed = ["zh-hans"]'])
    path.write_text(text)
    call_command("loadcontent", str(content), stdout=StringIO())

    first, on_c = notes_on("2.3", "definition-1")[0], notes_on("2.3", "example-c")[0]
    status = note_status(first, "en")
    assert (status.state, status.confirmed_source) == (State.OUTDATED, "")
    assert note_status(on_c, "zh-hans").state == State.REVIEWED

    staff = client_for(editor())
    response = staff.get("/admin/translate/")
    cells = next(cells for section, cells in response.context["rows"] if section.number == "2.3")
    counts = {cell.code: cell.note_counts for cell in cells}
    assert counts["en"][State.OUTDATED] == 1 and counts["zh-hans"][State.REVIEWED] == 1

    page = parse(staff.get(translate_url("2.3", "en")).content.decode())
    note = page.find("div", id=f"note-{first.pk}")
    assert note.find("span", class_="tr-state-outdated") is not None
    assert "follows an older original of the note, which this site does not hold" in note.text()
    assert note.find("p", class_="tr-diff") is None, "its older original is unknown: no diff is offered"
    page = parse(staff.get(translate_url("2.3", "zh-hans")).content.decode())
    assert page.find("div", id=f"note-{on_c.pk}").find("span", class_="tr-state-reviewed") is not None

    # Exported again, the file is as it was written.
    again = tmp_path / "again"
    call_command("exportcontent", str(again), stdout=StringIO())
    assert (again / "sections" / "2.3.toml").read_text() == text


def test_a_note_translation_following_an_original_no_release_holds_shows_its_diff_and_is_written_unknown(ipg, tmp_path):
    first = notes_on("2.3", "definition-1")[0]
    original = first.body_in("ja")
    write_note(first, "ja", original + "一。")  # after the release: no release holds this original
    write_note(first, "en", "The note in English, for this test.")
    write_note(first, "ja", original + "一。二。")
    page = parse(client_for(translator("en")).get(translate_url("2.3", "en")).content.decode())
    outdated = page.find("div", id=f"note-{first.pk}").find("div", class_="tr-outdated")
    assert "The note's original changed since this translation was last confirmed:" in outdated.text()
    assert [i.text() for i in outdated.find("p", class_="tr-diff").find_all("ins")] == ["二。"]

    # content/ names releases only: that original is "unknown" there, as a paragraph's English would be.
    content = tmp_path / "content"
    call_command("exportcontent", str(content), stdout=StringIO())
    assert 'follows = { en = "unknown" }' in (content / "sections" / "2.3.toml").read_text().split("[[notes]]")[1]


def test_a_note_original_that_a_load_changes_outdates_its_translations_whatever_the_file_says(ipg, tmp_path):
    first = notes_on("2.3", "definition-1")[0]
    original = first.body_in("ja")
    write_note(first, "en", "The note in English, for this test.")
    content = tmp_path / "content"
    shutil.copytree(CONTENT, content)
    call_command("exportcontent", str(content), stdout=StringIO())
    path = content / "sections" / "2.3.toml"
    path.write_text(path.read_text().replace(original, original + "追記。", 1))

    call_command("loadcontent", str(content), stdout=StringIO())
    status = note_status(first, "en")
    assert (status.state, status.confirmed_source) == (State.OUTDATED, original)


@pytest.mark.parametrize(
    "lines, message, at",
    [
        (['follows = { ja = "unknown" }'], "follows names 'ja', which is not a translation it has", "follows"),
        (
            ['follows = { zh-hans = "unknown" }'],
            "follows names 'zh-hans', which is not a translation it has",
            "follows",
        ),
        (['follows = { en = "last year" }'], 'follows.en must be a release date like "2024-09-23"', "follows"),
        (["follows = { en = 2024 }"], "follows.en must be a release date", "follows"),
        (['follows = ["en"]'], "follows must be a table of languages, not an array", "follows"),
        (
            ['follows = { en = "2020-01-01" }'],
            "follows.en names 2020-01-01, no release of which holds its original (ja) in this place",
            "[[notes]]",
        ),
        (['reviewed = ["en", "en"]'], "reviewed must be a list of languages, each once", "reviewed"),
        (['reviewed = "en"'], "reviewed must be a list of languages, each once", "reviewed"),
        (['reviewed = ["ja"]'], "reviewed names 'ja', which is not a current translation it has", "reviewed"),
        (
            ['follows = { en = "unknown" }', 'reviewed = ["en"]'],
            "reviewed names 'en', which is not a current translation it has",
            "reviewed",
        ),
    ],
)
def test_a_wrong_note_status_is_refused_naming_the_file_and_the_note_and_nothing_changes(
    ipg, tmp_path, lines, message, at
):
    content = tmp_path / "content"
    shutil.copytree(CONTENT, content)
    path = content / "sections" / "2.3.toml"
    # A good change to another note, then the crafted value on the second note on definition-1.
    text = with_note(path.read_text(), "example-c", 1, ['zh-hans = "一条中文注释。"'], ['reviewed = ["zh-hans"]'])
    text = with_note(text, "definition-1", 2, ['en = "An English note."'], lines)
    path.write_text(text)
    second = notes_on("2.3", "definition-1")[1]
    numbered = list(enumerate(text.split("\n"), 1))
    if at == "[[notes]]":  # a date no release holds: the note's own line, as for a paragraph
        line = [n for n, written in numbered if written == "[[notes]]"][1]
    else:  # a malformed value: its own line, the first such line in the file
        line = next(n for n, written in numbered if written.startswith(at) and written in lines)
    before = sorted(Status.of_notes.values_list("note_id", "language", "state", "confirmed_source", "reviewed_at"))
    bodies = sorted(Note.objects.values_list("pk", "body_en", "body_zh_hans", "body_ja"))

    with pytest.raises(CommandError) as error:
        call_command("loadcontent", str(content), stdout=StringIO())
    assert str(error.value).startswith(f"Nothing was loaded. {path}:{line}: note 2 on 'definition-1': ")
    assert message in str(error.value)
    assert sorted(Status.of_notes.values_list("note_id", "language", "state", "confirmed_source", "reviewed_at")) == (
        before
    )
    assert sorted(Note.objects.values_list("pk", "body_en", "body_zh_hans", "body_ja")) == bodies
    assert note_status(second, "en").state == State.MISSING

    err = StringIO()
    with pytest.raises(CommandError, match="structural error"):
        call_command("checkcontent", str(content), stdout=StringIO(), stderr=err)
    assert f"error: {path}:{line}: note 2 on 'definition-1': " in err.getvalue() and message in err.getvalue()


# Notes, as readers see them: a note's translation that follows an older original is marked inside the note, in the
# reader's language, naming the language of the note's original.


def outdated_english_of(note, added="追記。"):
    """Give the note an English translation, then change its Japanese original: the English is outdated."""
    original = note.body_in("ja")
    write_note(note, "en", "The note in English, for this test.")
    write_note(note, "ja", original + added)
    return Note.objects.get(pk=note.pk)


@pytest.mark.parametrize(
    "url, interface, words",
    [
        ("/en/ipg/2.3/", "en", f"follows the note's Japanese original as it was in the IPG of {FIRST}"),
        ("/zh-hans/ipg/2.3/?langs=en,zh-hans", "zh-Hans", f"依据{FIRST}版IPG中的本注释的日文原文"),
        ("/ja/ipg/2.3/?langs=en,ja", "ja", f"{FIRST}版IPGにあったこの注釈の日本語の原文"),
    ],
)
def test_an_outdated_note_translation_is_marked_inside_the_note_naming_its_original(client, ipg, url, interface, words):
    first = outdated_english_of(notes_on("2.3", "definition-1")[0])
    found = note_marks(client, url)
    assert list(found) == ["definition-1"] and len(found["definition-1"]) == 1
    mark = found["definition-1"][0]
    assert mark.attrs["id"] == f"lag-note-{first.pk}-en" and mark.attrs["lang"] == interface
    assert words in mark.text()
    assert mark.parent.attrs["lang"] == "en" and "note-body" in mark.parent.classes, "inside the English it is about"
    diff = mark.find("details").find("p", class_="diff")
    assert diff.attrs["lang"] == "ja" and [i.text() for i in diff.find_all("ins")] == ["追記。"]
    # The note's body, without the mark, is still the translation alone; the paragraph itself carries no mark.
    assert mark.parent.text(["lag"]) == "The note in English, for this test."
    assert "definition-1" not in marks(client, url)


def test_the_original_of_a_note_never_carries_the_mark(client, ipg):
    outdated_english_of(notes_on("2.3", "definition-1")[0])
    assert note_marks(client, "/ja/ipg/2.3/") == {}
    assert note_marks(client, "/zh-hans/ipg/2.3/") == {}, "no Chinese: the Japanese original is shown, unmarked"
    page = parse(client.get("/en/ipg/2.3/?langs=ja,en").content.decode())
    bodies = [b for b in page.find_all("div", class_="note-body") if b.find("div", class_="lag")]
    assert [b.attrs["lang"] for b in bodies] == ["en"]


def test_a_note_written_in_english_names_english_as_its_original(client, ipg):
    note = add_note("2.4", "example-a", "en", en="An English note, for this test.", ja="テスト用の英語の注釈。")
    write_note(note, "en", "An English note, for this test, changed.")
    [mark] = note_marks(client, "/ja/ipg/2.4/")["example-a"]
    # No release holds this note: its older original is not on the site, though the change since is.
    assert "この注釈の英語の原文の古い版に基づいていますが、その版はこのサイトにありません" in mark.text()
    assert mark.attrs["lang"] == "ja"
    assert mark.find("p", class_="diff").attrs["lang"] == "en"
    [mark] = note_marks(client, "/en/ipg/2.4/?langs=ja,en")["example-a"]
    assert "follows an older version of the note's English original, which this site does not hold" in mark.text()
    assert note_marks(client, "/en/ipg/2.4/") == {}, "the English is the original"


def test_current_and_reviewed_note_translations_carry_no_mark(client, ipg):
    first, second = notes_on("2.3", "definition-1")[:2]
    write_note(first, "en", "The note in English, for this test.")
    write_note(second, "en", "Another note in English, for this test.")
    mark_reviewed(Note.objects.get(pk=second.pk), "en", editor())
    assert (note_status(first, "en").state, note_status(second, "en").state) == (State.TRANSLATED, State.REVIEWED)
    assert note_marks(client, "/en/ipg/2.3/") == {}
    assert note_marks(client, "/ja/ipg/2.3/?langs=en,ja") == {}


def test_a_note_translation_updated_or_confirmed_again_loses_its_mark(client, ipg):
    first, second = notes_on("2.3", "definition-1")[:2]
    outdated_english_of(first)
    outdated_english_of(second, added="二。")
    assert len(note_marks(client, "/en/ipg/2.3/")["definition-1"]) == 2

    write_note(first, "en", "The note in English, translated again.")
    [mark] = note_marks(client, "/en/ipg/2.3/")["definition-1"]
    assert mark.attrs["id"] == f"lag-note-{second.pk}-en"
    confirm(Note.objects.get(pk=second.pk), "en", translator("en"))
    assert note_marks(client, "/en/ipg/2.3/") == {}


def test_the_old_version_of_a_page_carries_no_note_marks(client, ipg):
    outdated_english_of(notes_on("2.3", "definition-1")[0])
    assert note_marks(client, f"/en/ipg/2.3/?release={FIRST}") == {}


def test_the_lag_marks_cost_the_same_queries_however_many_notes_are_outdated(client, ipg):
    notes = list(Note.objects.filter(paragraph__section__number="2.3").order_by("pk"))
    assert len(notes) > 10
    for note in notes:
        write_note(note, "en", f"Note {note.pk} in English, for this test.")
    write_note(notes[0], "ja", notes[0].body_in("ja") + "追記。")
    client.get("/en/ipg/2.3/")  # per-process lookups made once, whatever the page
    content_changed()
    with CaptureQueriesContext(connection) as one:
        assert len(note_marks(client, "/en/ipg/2.3/")) == 1

    for note in notes[1:]:
        write_note(note, "ja", note.body_in("ja") + "追記。")
    with CaptureQueriesContext(connection) as every:
        found = note_marks(client, "/en/ipg/2.3/")
    assert sum(len(found_marks) for found_marks in found.values()) == len(notes)
    assert len(every) == len(one), [q["sql"] for q in every][len(one) :]


def test_the_reasons_for_close_calls_are_kept_with_the_statuses_and_written_back(ipg, tmp_path):
    # The decisions written as comments in content/ are the statuses' remarks: a load into an empty database and an
    # export to an empty directory give them back where they were.
    remedy_4 = Status.objects.get(paragraph=paragraph("2.3", "remedy-4"), language="ja")
    assert remedy_4.state != State.OUTDATED and "残りの処理を行う" in remedy_4.remark
    upgrade = Status.objects.get(paragraph=paragraph("2.3", "upgrade-1"), language="zh-hans")
    assert upgrade.remark.count("\n") == 1 and "printed on the card" in upgrade.remark
    assert Status.objects.get(paragraph=paragraph("2.3", "remedy-4"), language="zh-hans").remark == ""

    content = tmp_path / "content"
    shutil.copytree(CONTENT, content)
    path = content / "sections" / "2.3.toml"
    path.write_text(
        path.read_text().replace('# ja: 正常な状態 ("the correct state")', '# ja: 正常な状態 ("the right state")')
    )
    Status.objects.all().delete()
    # The statuses wiped by other means than the write path: a change the load would overwrite, so it is told to.
    call_command("loadcontent", str(content), "--discard-edits", stdout=StringIO())
    status = Status.objects.get(paragraph=paragraph("2.3", "philosophy-2"), language="ja")
    assert status.remark.startswith('正常な状態 ("the right state")')
    out = tmp_path / "out"
    call_command("exportcontent", str(out), stdout=StringIO())
    assert (out / "sections" / "2.3.toml").read_bytes() == path.read_bytes()


@pytest.mark.parametrize(
    "where, comment, message",
    [
        ('en = "A player draws four cards after casting Ancestral Recall."', "# a thought", "translation's remark"),
        ('en = "A player draws four cards after casting Ancestral Recall."', "# en: the source", "names 'en'"),
        ('en = "A player draws four cards after casting Ancestral Recall."', "# fr: ici", "names 'fr'"),
        ('penalty = "warning"', "# ja: nowhere", "inside a paragraph or a note"),
    ],
)
def test_a_comment_an_export_could_not_keep_is_refused_naming_its_line(ipg, tmp_path, where, comment, message):
    content = tmp_path / "content"
    shutil.copytree(CONTENT, content)
    path = content / "sections" / "2.3.toml"
    text = path.read_text()
    assert text.count(where) == 1
    path.write_text(text.replace(where, f"{where}\n{comment}"))
    line = path.read_text().split("\n").index(comment) + 1
    err = StringIO()
    with pytest.raises(CommandError, match="structural error"):
        call_command("checkcontent", str(content), stdout=StringIO(), stderr=err)
    assert f"{path}:{line}: " in err.getvalue() and message in err.getvalue()
    with pytest.raises(CommandError, match=message):
        call_command("loadcontent", str(content), stdout=StringIO())


def test_a_remark_on_a_translation_the_paragraph_has_is_loaded(ipg, tmp_path):
    content = tmp_path / "content"
    shutil.copytree(CONTENT, content)
    path = content / "sections" / "2.3.toml"
    where = 'ja = "プレイヤーが《Ancestral Recall》を唱えた後に、4枚のカードを引いた。"'
    path.write_text(path.read_text().replace(where, f"{where}\n# ja: checked against seed 001"))
    call_command("loadcontent", str(content), stdout=StringIO())
    status = Status.objects.get(paragraph=paragraph("2.3", "example-a"), language="ja")
    assert (status.remark, status.state) == ("checked against seed 001", State.TRANSLATED)


def test_a_new_translation_or_a_confirmation_drops_the_remark_on_the_old_one(ipg):
    zh = translator("zh-hans")
    write("2.3", "remedy-4", "ja", paragraph("2.3", "remedy-4").text_in("ja") + "。")
    assert Status.objects.get(paragraph=paragraph("2.3", "remedy-4"), language="ja").remark == ""
    confirm(paragraph("2.3", "upgrade-1"), "zh-hans", zh)
    status = Status.objects.get(paragraph=paragraph("2.3", "upgrade-1"), language="zh-hans")
    assert (status.state, status.remark) == (State.TRANSLATED, "")
    # The near miss: the Japanese of upgrade-1, untouched, keeps its remark.
    assert "morph" in Status.objects.get(paragraph=paragraph("2.3", "upgrade-1"), language="ja").remark


# Every page that shows a paragraph shows its lag -------------------------------------------------------------------

LAGGING = {"ja": ["remedy-5", "upgrade-1"], "zh-hans": ["upgrade-1"]}  # 2.3's, read against the English of the seeds


@pytest.mark.parametrize("code", ["ja", "zh-hans"])
def test_a_releases_page_marks_the_translations_that_lagged_in_that_release(client, ipg, code):
    """L1: ?release=2024-09-23 showed no mark on the Japanese remedy-5 and upgrade-1 and the Chinese upgrade-1,
    though the English that release froze beside them has sentences they lack."""
    found = marks(client, f"/{code}/ipg/2.3/?release={FIRST}")
    assert sorted(found) == LAGGING[code]
    assert all(mark.attrs["lang"] == {"ja": "ja", "zh-hans": "zh-Hans"}[code] for m in found.values() for mark in m)
    # the English itself never lags
    assert marks(client, f"/en/ipg/2.3/?release={FIRST}") == {}


def test_a_translation_current_in_a_release_is_not_marked_there_once_the_english_changes_after_it(client, ipg):
    """The near miss: the English of example C rewritten after the release; the release's page has no mark for it,
    the current page has."""
    write("2.3", "example-c", "en", "A player resolves a Dark Confidant trigger and forgets to reveal the card.")
    assert "example-c" in marks(client, "/ja/ipg/2.3/")
    assert "example-c" not in marks(client, f"/ja/ipg/2.3/?release={FIRST}")


@pytest.mark.parametrize(
    "url, keys",
    [
        ("/ja/ipg/2.3/remedy-5/", {"remedy-5"}),  # a paragraph's own page
        (f"/ja/ipg/2.3/upgrade-1/?release={FIRST}", {"upgrade-1"}),  # …as a release holds it
        ("/ja/list/?p=2.3:upgrade-1&p=2.3:remedy-5", {"ref-2-3-upgrade-1", "ref-2-3-remedy-5"}),  # a reading list
        ("/ja/ipg/2.3/?langs=ja,en", {"remedy-5", "upgrade-1"}),  # compare
    ],
)
def test_every_page_that_shows_a_lagging_paragraph_marks_it(client, ipg, url, keys):
    """L2: reading lists, paragraph pages and the finder's quotes carried no mark where the section page does."""
    page = parse(client.get(url).content.decode())
    rows = {row.attrs.get("id") for row in page.find_all("div", class_="row") if row.find("div", class_="lag")}
    assert keys <= rows, rows


def test_the_finders_quotes_mark_a_lagging_translation(client, ipg):
    write(
        "2.3",
        "definition-1",
        "en",
        Section.objects.get(number="2.3").paragraphs.get(key="definition-1").text_en + " X.",
    )
    page = parse(client.get("/ja/finder/in-game/no-trigger/no/no/no/yes/").content.decode())
    quote = page.find("blockquote", class_="finder-citation")
    assert quote.find("a").attrs["href"].endswith("#definition-1")
    mark = quote.find("div", class_="lag")
    assert mark is not None and mark.attrs["lang"] == "ja" and "英語" in mark.text()
    # the near miss: the English quote, which follows nothing, has none
    page = parse(client.get("/en/finder/in-game/no-trigger/no/no/no/yes/").content.decode())
    assert page.find("blockquote", class_="finder-citation").find("div", class_="lag") is None


def test_an_oembed_card_marks_a_lagging_translation(client, ipg):
    def card(url):
        return client.get("/oembed/", {"url": f"http://testserver{url}", "format": "json"}).json()["html"]

    assert 'class="lag"' in card("/ja/ipg/2.3/remedy-5/")
    assert 'class="lag"' in card(f"/ja/ipg/2.3/remedy-5/?release={FIRST}")
    assert 'class="lag"' not in card("/ja/ipg/2.3/remedy-4/")  # the near miss: a current translation


def test_the_api_gives_the_lags_of_a_releases_translations(client, ipg):
    held = client.get(f"/api/ipg/2.3/remedy-5/?release={FIRST}").json()
    assert held["lags"] == {"ja": {"follows": "unknown", "changes": None}}
    assert client.get(f"/api/ipg/2.3/remedy-4/?release={FIRST}").json()["lags"] == {}
