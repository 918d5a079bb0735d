"""loadcontent, exportcontent and checkcontent on real and malformed content files."""

import filecmp
import re
import shutil
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from ipgsite.ipg.models import Alias, Chapter, Note, Paragraph, Section
from ipgsite.terms.models import Term


def snapshot():
    return (
        sorted(Chapter.objects.values_list("number", "order", "title_en", "title_zh_hans", "title_ja")),
        sorted(Section.objects.values_list("number", "title_en", "penalty", "order")),
        sorted(Paragraph.objects.values_list("section__number", "key", "order", "text_en", "text_zh_hans", "text_ja")),
        sorted(
            Note.objects.values_list(
                "paragraph__key", "order", "language", "source", "body_en", "body_zh_hans", "body_ja"
            )
        ),
        sorted(Alias.objects.values_list("section__number", "name", "language", "former")),
        sorted(
            (key, kind, order, str(defined), str(found), *names)
            for key, kind, order, defined, found, *names in Term.objects.values_list(
                "key",
                "kind",
                "order",
                "defined_in",
                "found",
                *(f"{f}_{c}" for f in ("name", "variants", "inflections") for c in ("en", "zh_hans", "ja")),
            )
        ),
    )


@pytest.fixture
def content(tmp_path):
    """A copy of content/ to break."""
    copy = tmp_path / "content"
    shutil.copytree(settings.CONTENT_DIR, copy)
    return copy


@pytest.mark.database  # through the database's own storage (jsonb on PostgreSQL)
def test_load_then_export_reproduces_content_byte_for_byte(ipg, tmp_path):
    out = tmp_path / "exported"
    call_command("exportcontent", str(out), stdout=StringIO())
    comparison = filecmp.dircmp(settings.CONTENT_DIR, out)
    assert comparison.left_only == comparison.right_only == []
    for directory in (settings.CONTENT_DIR, settings.CONTENT_DIR / "sections"):
        names = [p.name for p in directory.iterdir() if p.is_file()]
        match, mismatch, errors = filecmp.cmpfiles(
            directory, out / directory.relative_to(settings.CONTENT_DIR), names, shallow=False
        )
        assert mismatch == errors == []
        assert len(match) == len(names)


def test_loading_twice_changes_nothing(ipg):
    before = snapshot()
    out = StringIO()
    call_command("loadcontent", stdout=out)
    assert "0 rows created, 0 updated, 0 deleted" in out.getvalue()
    assert snapshot() == before


def test_the_whole_outline_is_loaded(ipg):
    assert Section.objects.count() == 30
    assert Section.objects.infractions().count() == 23
    assert list(Section.objects.with_text().values_list("number", flat=True)) == ["2.1", "2.3", "2.4"]
    hidden = Section.objects.get(number="2.3")
    assert (hidden.title_en, hidden.title_zh_hans, hidden.penalty) == (
        "Game Play Error — Hidden Card Error",
        "非公开牌张失误",
        "warning",
    )
    assert Section.objects.get(number="4.8").title_ja == "非紳士的行為 ― 故意の違反"
    assert Section.objects.get(number="2.1").penalty == "no-penalty"
    assert Section.objects.get(number="4.5").penalty == "disqualification"


def test_an_edit_in_a_file_updates_only_that_paragraph(ipg, content):
    path = content / "sections" / "2.4.toml"
    path.write_text(path.read_text().replace("A player keeps her hand, scries,", "A player keeps their hand, scries,"))
    out = StringIO()
    call_command("loadcontent", str(content), stdout=out)
    assert "1 updated" in out.getvalue()
    assert Paragraph.objects.get(section__number="2.4", key="example-c").text_en.startswith("A player keeps their hand")


BROKEN = {
    "bad syntax": (
        lambda t: t.replace('part = "example"', 'part = "example', 1),
        "TOML syntax error",
    ),
    "an unknown field": (
        lambda t: t.replace('part = "example"', 'part = "example"\nfr = "Un joueur"', 1),
        "unknown field 'fr' in a paragraph",
    ),
    "an unknown part": (
        lambda t: t.replace('part = "example"', 'part = "examples"', 1),
        "unknown part 'examples'",
    ),
    "a duplicate key": (
        lambda t: t.replace('key = "example-b"', 'key = "example-a"', 1),
        "duplicate paragraph key 'example-a'",
    ),
    "a note on a missing paragraph": (
        lambda t: t.replace('paragraph = "example-c"', 'paragraph = "example-z"', 1),
        "note on paragraph 'example-z', which this section does not have",
    ),
    "a key unsafe in a URL fragment": (
        lambda t: t.replace('key = "example-b"', 'key = "example.b"', 1),
        "paragraph key 'example.b' must be lowercase letters and digits",
    ),
}


@pytest.mark.parametrize("problem", BROKEN)
def test_a_malformed_file_changes_nothing_and_says_where_and_what(ipg, content, problem):
    break_it, message = BROKEN[problem]
    # An edit that would load fine, in another file, must not land either: loads are atomic.
    good = content / "sections" / "2.4.toml"
    good.write_text(good.read_text().replace("A player keeps her hand", "EDITED"))
    path = content / "sections" / "2.3.toml"
    broken = break_it(path.read_text())
    path.write_text(broken)
    before = snapshot()

    with pytest.raises(CommandError) as error:
        call_command("loadcontent", str(content), stdout=StringIO())

    text = str(error.value)
    assert "Nothing was loaded" in text
    assert str(path) in text
    assert message in text
    line = int(text.split(f"{path}:", 1)[1].split(":", 1)[0])
    assert 1 <= line <= broken.count("\n") + 1
    assert snapshot() == before


def test_a_note_on_a_missing_paragraph_reports_its_line(ipg, content):
    path = content / "sections" / "2.3.toml"
    text = path.read_text().replace('paragraph = "example-c"', 'paragraph = "example-z"', 1)
    path.write_text(text)
    expected = text.splitlines().index('paragraph = "example-z"') + 1
    with pytest.raises(CommandError, match=rf"2\.3\.toml:{expected}: note on paragraph 'example-z'"):
        call_command("loadcontent", str(content), stdout=StringIO())


def test_a_file_named_after_another_section_is_refused(ipg, content):
    (content / "sections" / "2.3.toml").rename(content / "sections" / "2.7.toml")
    with pytest.raises(CommandError, match="section 2.3 must be in a file named 2.3.toml"):
        call_command("loadcontent", str(content), stdout=StringIO())


def test_not_utf8_is_refused(ipg, content):
    (content / "sections" / "2.4.toml").write_bytes('number = "2.4"\n# \xff'.encode("latin-1"))
    with pytest.raises(CommandError, match="2.4.toml: not UTF-8"):
        call_command("loadcontent", str(content), stdout=StringIO())


def test_export_refuses_an_empty_database(empty_db, tmp_path):
    with pytest.raises(CommandError, match="no sections"):
        call_command("exportcontent", str(tmp_path), stdout=StringIO())
    assert not any(tmp_path.iterdir())


def test_checkcontent_reports_missing_languages_per_section(db):
    out = StringIO()
    call_command("checkcontent", stdout=out, stderr=StringIO())
    report = out.getvalue()
    assert "2.3: 19 paragraphs, 19 notes; complete in en, zh-hans, ja" in report
    assert "zh-hans: missing 6: definition-2, philosophy-1, philosophy-2, remedy-1, remedy-2, remedy-3" in report
    assert "2.4: 11 paragraphs, 0 notes; complete in en" in report
    assert "2.1: 43 paragraphs, 1 notes; complete in ja" in report
    assert "3.1: no text yet" in report


def test_checkcontent_fails_on_structural_errors(db, content):
    path = content / "sections" / "2.3.toml"
    path.write_text(path.read_text().replace('paragraph = "example-c"', 'paragraph = "example-z"', 1))
    other = content / "sections" / "2.4.toml"
    other.write_text(other.read_text().replace('key = "example-b"', 'key = "example-a"', 1))
    err = StringIO()
    with pytest.raises(CommandError, match="2 structural error"):
        call_command("checkcontent", str(content), stdout=StringIO(), stderr=err)
    assert "example-z" in err.getvalue() and "duplicate paragraph key 'example-a'" in err.getvalue()


def test_a_name_can_belong_to_one_section_only(ipg, content):
    path = content / "sections" / "2.2.toml"
    path.write_text(
        path.read_text().replace("[title]", '[former_names]\nzh-hans = ["游戏行动失误~额外抓牌"]\n\n[title]', 1)
    )
    with pytest.raises(CommandError, match="游戏行动失误~额外抓牌' is already an alias of section 2"):
        call_command("loadcontent", str(content), stdout=StringIO())


def _replace(old, new):
    def edit(text):
        assert old in text, old
        return text.replace(old, new, 1)

    return edit


LONG = "x" * 201
NUL = "\\u0000"

# Each case: the file to break, how, the problem the message must name, and the line it must point at.
# The line is given as its text in the broken file, so the test checks the error points at the right place;
# None for a key that is missing from the top of the file, where no line is to blame.
WRONG = {
    "paragraphs = [1]": (
        "3.1",
        _replace('penalty = "game-loss"', 'penalty = "game-loss"\nparagraphs = [1]'),
        "paragraph 1 must be a [[paragraphs]] table, not 1",
        "paragraphs = [1]",
    ),
    "notes = [1]": (
        "3.1",
        _replace('penalty = "game-loss"', 'penalty = "game-loss"\nnotes = [1]'),
        "note 1 must be a [[notes]] table, not 1",
        "notes = [1]",
    ),
    "chapters = 5": (
        "chapters",
        lambda t: "chapters = 5\n",
        "chapters must be written as [[chapters]] tables, not 5",
        "chapters = 5",
    ),
    "chapters = [1]": (
        "chapters",
        lambda t: "chapters = [1]\n",
        "chapter 1 must be a [[chapters]] table, not 1",
        "chapters = [1]",
    ),
    "a string where paragraphs are expected": (
        "3.1",
        _replace('penalty = "game-loss"', 'penalty = "game-loss"\nparagraphs = "text"'),
        "paragraphs must be written as [[paragraphs]] tables, not the string 'text'",
        'paragraphs = "text"',
    ),
    "a table where a string is expected": (
        "2.3",
        _replace('chapter = "2"', 'chapter = { number = "2" }'),
        "chapter must be a non-empty string, not a table",
        'chapter = { number = "2" }',
    ),
    "a table where a text is expected": (
        "2.3",
        _replace('key = "example-a"\npart = "example"\nen = ', 'key = "example-a"\npart = "example"\nen.text = '),
        "paragraph 'example-a': the en text must be a string, not a table",
        "en.text = ",
    ),
    "bullet = 'yes'": (
        "2.3",
        _replace('part = "example"', 'part = "example"\nbullet = "yes"'),
        "bullet must be true or false",
        'bullet = "yes"',
    ),
    "order = '3'": (
        "2.3",
        _replace("order = 23", 'order = "3"'),
        "order must be a whole number from 0 to 2147483647, not the string '3'",
        'order = "3"',
    ),
    "order = 2**31": (
        "2.3",
        _replace("order = 23", "order = 2147483648"),
        "order must be a whole number from 0 to 2147483647, not 2147483648",
        "order = 2147483648",
    ),
    "a negative order": (
        "2.3",
        _replace("order = 23", "order = -1"),
        "order must be a whole number from 0 to 2147483647, not -1",
        "order = -1",
    ),
    "a fractional order": (
        "2.3",
        _replace("order = 23", "order = 23.5"),
        "order must be a whole number from 0 to 2147483647, not 23.5",
        "order = 23.5",
    ),
    "a chapter's order = 2**31": (
        "chapters",
        _replace("order = 2\n", "order = 2147483648\n"),
        "chapter '2': order must be a whole number from 0 to 2147483647, not 2147483648",
        "order = 2147483648",
    ),
    "a chapter's negative order": (
        "chapters",
        _replace("order = 2\n", "order = -2\n"),
        "chapter '2': order must be a whole number from 0 to 2147483647, not -2",
        "order = -2",
    ),
    "aliases = ['x']": (
        "2.3",
        lambda t: _replace('[aliases]\nen = ["Hidden Card Error", "HCE"]\nja = ["非公開カードに関する誤り"]\n', "")(
            _replace("order = 23", 'order = 23\naliases = ["x"]')(t)
        ),
        "[aliases] must be a table of lists of names by language, not an array",
        'aliases = ["x"]',
    ),
    "an alias that is not a string": (
        "2.3",
        _replace('en = ["Hidden Card Error", "HCE"]', 'en = ["Hidden Card Error", 1]'),
        "[aliases] en must be a list of non-empty strings",
        'en = ["Hidden Card Error", 1]',
    ),
    "a former name given as a string, not a list": (
        "2.3",
        _replace('zh-hans = ["游戏行动失误~额外抓牌"]', 'zh-hans = "游戏行动失误~额外抓牌"'),
        "[former_names] zh-hans must be a list of non-empty strings",
        'zh-hans = "游戏行动失误~额外抓牌"',
    ),
    "a title that is a number": (
        "2.3",
        _replace('ja = "ゲーム上の誤り ─ 非公開カードに関する誤り"', "ja = 5"),
        "[title]: the ja text must be a string, not 5",
        "ja = 5",
    ),
    "a chapter title that is a list": (
        "chapters",
        _replace('ja = "ゲーム上の誤り"', 'ja = ["ゲーム上の誤り"]'),
        "chapter '2': the ja text must be a string, not an array",
        'ja = ["ゲーム上の誤り"]',
    ),
    "a note's source that is a number": (
        "2.3",
        _replace('source = "Japanese annotated edition"', "source = 1"),
        "source must be a non-empty string, not 1",
        "source = 1",
    ),
    "a section number over 16 characters": (
        "2.3 as 1.123456789012345",
        _replace('number = "2.3"', 'number = "1.123456789012345"'),
        "number '1.123456789012345' is 17 characters long; at most 16 fit",
        'number = "1.123456789012345"',
    ),
    "a title over 200 characters": (
        "2.3",
        _replace('en = "Game Play Error — Hidden Card Error"', f'en = "{LONG}"'),
        "[title]: the en text is 201 characters long; at most 200 fit",
        f'en = "{LONG}"',
    ),
    "a chapter title over 200 characters": (
        "chapters",
        _replace('en = "Game Play Errors"', f'en = "{LONG}"'),
        "chapter '2': the en text is 201 characters long; at most 200 fit",
        f'en = "{LONG}"',
    ),
    "a chapter number over 16 characters": (
        "chapters",
        _replace('number = "1"', 'number = "12345678901234567"'),
        "a chapter's number '12345678901234567' is 17 characters long; at most 16 fit",
        'number = "12345678901234567"',
    ),
    "a key over 64 characters": (
        "2.3",
        _replace('key = "example-a"', f'key = "{"a" * 65}"'),
        f"paragraph key '{'a' * 65}' is 65 characters long; at most 64 fit",
        f'key = "{"a" * 65}"',
    ),
    "an alias over 200 characters": (
        "2.3",
        _replace('"HCE"]', f'"{LONG}"]'),
        "[aliases] en: the name 'xxxxxxxx",
        f'en = ["Hidden Card Error", "{LONG}"]',
    ),
    "a source over 200 characters": (
        "2.3",
        _replace('source = "Japanese annotated edition"', f'source = "{LONG}"'),
        "source is 201 characters long; at most 200 fit",
        f'source = "{LONG}"',
    ),
    "the same alias twice in a section": (
        "2.3",
        _replace('"HCE"]', '"HCE", "HCE"]'),
        "the en name 'HCE' is listed twice in [aliases]",
        'en = ["Hidden Card Error", "HCE", "HCE"]',
    ),
    "the same name as an alias and a former name": (
        "2.3",
        _replace("[former_names]\n", '[former_names]\nen = ["HCE"]\n'),
        "the en name 'HCE' is both in [aliases] and in [former_names]",
        'en = ["HCE"]',
    ),
    "an alias of another section": (
        "3.1",
        _replace('en = ["Tardiness"]', 'en = ["Tardiness", "HCE"]'),
        "the en name 'HCE' is already an alias of section 2.3",
        'en = ["Tardiness", "HCE"]',
    ),
    "a key ending in a line break": (
        "2.3",
        _replace('key = "example-b"', 'key = "example-b\\n"'),
        "paragraph key 'example-b\\n' must be lowercase letters and digits joined by hyphens",
        'key = "example-b\\n"',
    ),
    "a section number ending in a line break": (
        "2.3",
        _replace('number = "2.3"', 'number = "2.3\\n"'),
        "section number '2.3\\n' should look like 2.3",
        'number = "2.3\\n"',
    ),
    "an unknown chapter": (
        "2.3",
        _replace('chapter = "2"', 'chapter = "9"'),
        "unknown chapter '9'",
        'chapter = "9"',
    ),
    "an order another section has": (
        "2.4",
        _replace("order = 24", "order = 23"),
        "order 23 is already used by section 2.3",
        "order = 23",
    ),
    "a paragraph without a part": (
        "2.3",
        _replace('part = "definition"\n', ""),
        "paragraph 'definition-1': part is missing; expected one of",
        "[[paragraphs]]",
    ),
    "a note without a language": (
        "2.3",
        _replace('language = "ja"\n', ""),
        "note on 'definition-1': language is missing; expected one of",
        "[[notes]]",
    ),
    "a section without an order": (
        "2.3",
        _replace("order = 23\n", ""),
        "order is missing; it must be a whole number from 0 to 2147483647",
        None,
    ),
    "a section without a title": (
        "2.3",
        _replace(
            '[title]\nen = "Game Play Error — Hidden Card Error"\nzh-hans = "非公开牌张失误"\nja = "ゲーム上の誤り ─ 非公開カードに関する誤り"\n',
            "",
        ),
        "[title] is missing; it must be a table with the title in each language, at least en",
        None,
    ),
    "a NUL in a paragraph's text": (
        "2.3",
        _replace('en = "A player commits an error', f'en = "A player{NUL} commits an error'),
        "paragraph 'definition-1': the en text contains a NUL character",
        f'en = "A player{NUL} commits',
    ),
    "a NUL in a note": (
        "2.3",
        _replace('ja = "〔ゲーム上の誤り〕の大半が', f'ja = "{NUL}〔ゲーム上の誤り〕の大半が'),
        "note on 'definition-1': the ja text contains a NUL character",
        f'ja = "{NUL}〔ゲーム上の誤り〕',
    ),
    "a NUL in a title": (
        "2.3",
        _replace('en = "Game Play Error — Hidden Card Error"', f'en = "Game Play Error{NUL}"'),
        "[title]: the en text contains a NUL character",
        f'en = "Game Play Error{NUL}"',
    ),
    "a NUL in an alias": (
        "2.3",
        _replace('"HCE"]', f'"HCE{NUL}"]'),
        "[aliases] en: the name 'HCE\\x00' contains a NUL character",
        f'en = ["Hidden Card Error", "HCE{NUL}"]',
    ),
    "a NUL in a source": (
        "2.3",
        _replace('source = "Japanese annotated edition"', f'source = "Japanese{NUL}"'),
        "source contains a NUL character",
        f'source = "Japanese{NUL}"',
    ),
    "a NUL in a chapter title": (
        "chapters",
        _replace('en = "Game Play Errors"', f'en = "Game Play Errors{NUL}"'),
        "chapter '2': the en text contains a NUL character",
        f'en = "Game Play Errors{NUL}"',
    ),
    "a lone surrogate": (
        "2.3",
        _replace('en = "Game Play Error — Hidden Card Error"', 'en = "Game Play Error \\ud800"'),
        "TOML syntax error: Escaped character is not a Unicode scalar value",
        'en = "Game Play Error \\ud800"',
    ),
}


def _line(text, start):
    """The number of the first line of `text` that starts with `start`."""
    return next(n for n, line in enumerate(text.split("\n"), 1) if line.startswith(start))


def _break(content, name, break_it):
    """Break chapters.toml or a section file; "2.3 as 1.2" breaks 2.3.toml and renames it 1.2.toml."""
    source, _, target = name.partition(" as ")
    path = content / "chapters.toml" if source == "chapters" else content / "sections" / f"{source}.toml"
    broken = break_it(path.read_text())
    if target:
        path.unlink()
        path = path.with_name(f"{target}.toml")
    path.write_text(broken)
    return path, broken


@pytest.mark.parametrize("problem", WRONG)
def test_a_wrong_type_or_value_changes_nothing_and_says_where_and_what(ipg, content, problem):
    name, break_it, message, at = WRONG[problem]
    good = content / "sections" / "2.4.toml"
    good.write_text(good.read_text().replace("A player keeps her hand", "EDITED"))
    path, broken = _break(content, name, break_it)
    where = f"{path}:{_line(broken, at)}" if at else f"{path}"
    before = snapshot()

    with pytest.raises(CommandError) as error:
        call_command("loadcontent", str(content), stdout=StringIO())

    assert str(error.value).startswith(f"Nothing was loaded. {where}: ")
    assert message in str(error.value)
    assert snapshot() == before


@pytest.mark.parametrize("problem", WRONG)
def test_checkcontent_reports_a_wrong_type_or_value_without_a_database(content, problem):
    name, break_it, message, at = WRONG[problem]
    path, broken = _break(content, name, break_it)
    where = f"{path}:{_line(broken, at)}" if at else f"{path}"
    err = StringIO()
    with pytest.raises(CommandError, match="structural error"):
        call_command("checkcontent", str(content), stdout=StringIO(), stderr=err)
    assert f"error: {where}: " in err.getvalue()
    assert message in err.getvalue()


def test_a_surrogate_in_the_bytes_is_not_utf8(ipg, content):
    path = content / "sections" / "2.3.toml"
    path.write_bytes(path.read_bytes().replace(b"HCE", b"HC\xed\xa0\x80", 1))
    before = snapshot()
    with pytest.raises(CommandError, match=r"2\.3\.toml: not UTF-8"):
        call_command("loadcontent", str(content), stdout=StringIO())
    assert snapshot() == before


def test_arrays_nested_too_deeply_are_refused(ipg, content):
    path = content / "sections" / "2.3.toml"
    path.write_text(path.read_text().replace("order = 23", "order = 23\ndeep = " + "[" * 2000 + "]" * 2000, 1))
    before = snapshot()
    with pytest.raises(CommandError, match=rf"Nothing was loaded. {re.escape(str(path))}: nested too deeply"):
        call_command("loadcontent", str(content), stdout=StringIO())
    assert snapshot() == before


def test_a_content_directory_without_sections_is_refused(ipg, content):
    shutil.rmtree(content / "sections")
    before = snapshot()
    with pytest.raises(CommandError, match=rf"Nothing was loaded. {re.escape(str(content / 'sections'))}: missing"):
        call_command("loadcontent", str(content), stdout=StringIO())
    assert snapshot() == before


def test_a_content_directory_with_no_section_files_is_refused(ipg, content):
    for path in (content / "sections").glob("*.toml"):
        path.unlink()
    before = snapshot()
    with pytest.raises(
        CommandError, match=rf"Nothing was loaded. {re.escape(str(content / 'sections'))}: no section files"
    ):
        call_command("loadcontent", str(content), stdout=StringIO())
    assert snapshot() == before


def test_lines_inside_a_multiline_text_are_not_taken_for_keys(ipg, content):
    path = content / "sections" / "2.3.toml"
    text = path.read_text()
    assert 'ja = """\n' in text
    text = text.replace('ja = """\n', 'ja = """\n[[paragraphs]]\npart = "examples"\n', 1)
    text = text.replace('part = "example"', 'part = "examples"', 1)
    path.write_text(text)
    line = text.split("\n").index('part = "examples"', text.split("\n").index('key = "example-a"')) + 1
    with pytest.raises(CommandError, match=rf"2\.3\.toml:{line}: paragraph 'example-a': unknown part 'examples'"):
        call_command("loadcontent", str(content), stdout=StringIO())


# A load never overwrites what someone edited in the database since the last load or export.

EDITED_JA = "TEST 管理画面で保存した訳文(このテストのための作り事)。"


def load(*args):
    out = StringIO()
    call_command("loadcontent", *args, stdout=out)
    return out.getvalue()


def admin_edit(number, key, column, text, username="editor"):
    """Save one paragraph's text in the admin, as an editor does."""
    from people import admin_form_data, client_for, editor

    staff = client_for(editor(username))
    url = f"/admin/ipg/paragraph/{Paragraph.objects.get(section__number=number, key=key).pk}/change/"
    data = admin_form_data(staff.get(url))
    data[column] = text
    assert staff.post(url, data).status_code == 302
    return staff


def test_loadcontent_refuses_to_overwrite_an_admin_edit_naming_the_paragraph_and_its_editor(ipg):
    admin_edit("2.3", "example-b", "text_ja", EDITED_JA, username="hanako")
    with pytest.raises(CommandError) as refused:
        load()
    message = str(refused.value)
    assert message.startswith("Nothing was loaded. The database holds edits made since the last load")
    assert "  sections/2.3.toml\n    section 2.3, paragraph example-b [ja]: edited by hanako" in message
    assert "exportcontent" in message and "--discard-edits" in message
    assert Paragraph.objects.get(section__number="2.3", key="example-b").text_ja == EDITED_JA


def test_discard_edits_loads_the_files_over_them_and_says_what_it_discarded(ipg):
    admin_edit("2.3", "example-b", "text_ja", EDITED_JA, username="hanako")
    out = load("--discard-edits")
    assert "1 updated" in out
    assert "Discarded (--discard-edits)" in out and "section 2.3, paragraph example-b [ja]: edited by hanako" in out
    assert Paragraph.objects.get(section__number="2.3", key="example-b").text_ja != EDITED_JA
    assert "Discarded" not in load()  # and the next load has nothing to refuse


def test_skip_if_edited_loads_nothing_and_says_so_without_failing(ipg):
    admin_edit("2.3", "example-b", "text_ja", EDITED_JA, username="hanako")
    out, err = StringIO(), StringIO()
    call_command("loadcontent", "--skip-if-edited", stdout=out, stderr=err)
    assert out.getvalue() == ""
    assert "section 2.3, paragraph example-b [ja]: edited by hanako" in err.getvalue()
    assert f"Nothing was loaded from {settings.CONTENT_DIR}" in err.getvalue()
    assert Paragraph.objects.get(section__number="2.3", key="example-b").text_ja == EDITED_JA


def test_an_exported_edit_is_in_the_files_and_a_load_of_them_keeps_it(ipg, content):
    admin_edit("2.3", "example-b", "text_ja", EDITED_JA)
    call_command("exportcontent", str(content), stdout=StringIO())
    assert EDITED_JA in (content / "sections" / "2.3.toml").read_text()
    load(str(content))
    assert Paragraph.objects.get(section__number="2.3", key="example-b").text_ja == EDITED_JA


def test_edits_other_than_a_texts_are_named_too(ipg):
    """A section's title saved in the admin (named by the admin's log), a term's name (by the history), and a change
    made by other means (by its changed lines)."""
    from edits import change
    from ipgsite.editing import writing
    from people import admin_form_data, client_for, editor

    staff = client_for(editor("taro"))
    url = f"/admin/ipg/section/{Section.objects.get(number='2.4').pk}/change/"
    data = admin_form_data(staff.get(url))
    data["title_ja"] = "TEST 題名(このテストのための作り事)"
    assert staff.post(url, data).status_code == 302
    term = Term.objects.get(key="mulligan")
    writing.write_text(term, "ja", "TESTマリガン", by=editor("jiro"), base_revision=writing.LATEST)
    change(Section.objects.get(number="3.1"), penalty="match-loss")

    with pytest.raises(CommandError) as refused:
        load()
    message = str(refused.value)
    assert (
        "  sections/2.4.toml\n    section 2.4 Game Play Error — Mulligan Procedure Error: changed in the admin by taro"
        in (message)
    )
    assert "  terms.toml\n    term mulligan [ja]: edited by jiro" in message
    assert "  sections/3.1.toml\n    changed in the database, but not through a text" in message
    assert '-penalty = "game-loss"\n      +penalty = "match-loss"' in message
    assert Term.objects.get(key="mulligan").name_ja == "TESTマリガン"
