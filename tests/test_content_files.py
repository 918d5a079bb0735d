"""loadcontent, exportcontent and checkcontent on real and malformed content files."""

import filecmp
import shutil
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from ipgsite.ipg.models import Alias, Note, Paragraph, Section


def snapshot():
    return (
        sorted(Section.objects.values_list("number", "title_en", "penalty", "order")),
        sorted(Paragraph.objects.values_list("section__number", "key", "order", "text_en", "text_zh_hans", "text_ja")),
        sorted(Note.objects.values_list("paragraph__key", "order", "body_ja")),
        sorted(Alias.objects.values_list("name", "language")),
    )


@pytest.fixture
def content(tmp_path):
    """A copy of content/ to break."""
    copy = tmp_path / "content"
    shutil.copytree(settings.CONTENT_DIR, copy)
    return copy


def test_load_then_export_reproduces_content_byte_for_byte(ipg, tmp_path):
    out = tmp_path / "exported"
    call_command("exportcontent", str(out), stdout=StringIO())
    comparison = filecmp.dircmp(settings.CONTENT_DIR, out)
    assert comparison.left_only == comparison.right_only == []
    for directory in (settings.CONTENT_DIR, settings.CONTENT_DIR / "sections"):
        names = [p.name for p in directory.iterdir() if p.is_file()]
        match, mismatch, errors = filecmp.cmpfiles(directory, out / directory.relative_to(settings.CONTENT_DIR), names, shallow=False)
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
    assert (hidden.title_en, hidden.title_zh_hans, hidden.penalty) == ("Game Play Error — Hidden Card Error", "非公开牌张失误", "warning")
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
    expected = text.splitlines().index('paragraph = "example-z"')  # the [[notes]] header is the line above
    with pytest.raises(CommandError, match=rf"2\.3\.toml:{expected}: note on paragraph 'example-z'"):
        call_command("loadcontent", str(content), stdout=StringIO())


def test_a_file_named_after_another_section_is_refused(ipg, content):
    (content / "sections" / "2.3.toml").rename(content / "sections" / "2.7.toml")
    with pytest.raises(CommandError, match="section 2.3 must be in a file named 2.3.toml"):
        call_command("loadcontent", str(content), stdout=StringIO())


def test_not_utf8_is_refused(ipg, content):
    (content / "sections" / "2.4.toml").write_bytes("number = \"2.4\"\n# \xff".encode("latin-1"))
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
    path.write_text(path.read_text().replace("[title]", '[former_names]\nzh-hans = ["游戏行动失误~额外抓牌"]\n\n[title]', 1))
    with pytest.raises(CommandError, match="游戏行动失误~额外抓牌' is already an alias of section 2"):
        call_command("loadcontent", str(content), stdout=StringIO())
