"""content/terms.toml: loaded, exported and checked with the rest of content/; bad files change nothing."""

import shutil
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from ipgsite.editing.models import Change, State, Status
from ipgsite.terms.models import Kind, Term


@pytest.fixture
def content(tmp_path):
    copy = tmp_path / "content"
    shutil.copytree(settings.CONTENT_DIR, copy)
    return copy


def terms_snapshot():
    return sorted(Term.objects.values_list("key", "kind", "name_en", "name_zh_hans", "name_ja", "variants_en", "found"))


def test_every_term_is_loaded_with_its_names_kind_and_defining_paragraph(ipg):
    mulligan = Term.objects.get(key="mulligan")
    assert (mulligan.kind, mulligan.name_en, mulligan.name_zh_hans, mulligan.name_ja) == (
        "game-term",
        "mulligan",
        "再调度",
        "マリガン",
    )
    assert mulligan.variants_in("en") == ["mulligans"]
    hce = Term.objects.get(key="hidden-card-error")
    assert (hce.kind, hce.defined_in.section.number, hce.defined_in.key) == ("infraction", "2.3", "definition-1")
    assert Term.objects.get(key="dark-confidant").name_ja == "闇の腹心"
    assert set(Term.objects.values_list("kind", flat=True)) == set(Kind.values)


def test_a_missing_name_stays_missing(ipg):
    disguise = Term.objects.get(key="disguise")
    assert disguise.name_ja is None and disguise.name_in("ja") == ""
    assert Status.objects.get(term=disguise, language="ja").state == State.MISSING
    assert Status.objects.get(term=disguise, language="zh-hans").state == State.TRANSLATED


def test_a_term_name_loaded_from_files_has_history_like_a_paragraph(ipg):
    change = Change.objects.filter(term__key="scry", language="zh-hans", field="name").get()
    assert (change.before, change.after, change.user, change.paragraph) == ("", "占卜", None, None)


def test_an_edited_name_in_the_file_updates_that_term_only(ipg, content):
    path = content / "terms.toml"
    path.write_text(
        path.read_text().replace('ja = "予期"', 'ja = "予期 EDITED"', 1).replace('"予期" =', '"予期 EDITED" =')
    )
    before = {t.key: t.revision for t in Term.objects.all()}
    out = StringIO()
    call_command("loadcontent", str(content), stdout=out)
    assert "31 terms: 0 created, 1 updated, 0 deleted" in out.getvalue()
    after = {t.key: t.revision for t in Term.objects.all()}
    assert [key for key in after if after[key] != before[key]] == ["anticipate"]
    assert Term.objects.get(key="anticipate").name_ja == "予期 EDITED"


def test_a_directory_without_terms_toml_has_no_terms(ipg, content):
    (content / "terms.toml").unlink()
    call_command("loadcontent", str(content), stdout=StringIO())
    assert not Term.objects.exists()
    call_command("exportcontent", str(content), stdout=StringIO())
    assert not (content / "terms.toml").exists()


BROKEN = {
    "an unknown field": (
        lambda t: t.replace('kind = "card"', 'kind = "card"\nmeaning = "x"', 1),
        "unknown field 'meaning'",
    ),
    "an unknown kind": (lambda t: t.replace('kind = "card"', 'kind = "spell"', 1), "unknown kind 'spell'"),
    "a duplicate key": (
        lambda t: t.replace('key = "hand"', 'key = "library"', 1),
        "duplicate term key 'library'",
    ),
    "a name two terms share": (
        lambda t: t.replace('zh-hans = "伪装"', 'zh-hans = "伪装"\nja = "ライブラリー"', 1),
        "term 'disguise': the ja form 'ライブラリー' is also a form of term 'library'",
    ),
    "a name two terms share in another case": (
        lambda t: t.replace('ja = "誘発忘れ"', 'en = "LIBRARY"\nja = "誘発忘れ"', 1),
        "term 'library': the en form 'library' is also a form of term 'missed-trigger'",
    ),
    "a defining paragraph that does not exist": (
        lambda t: t.replace('defined_at = "2.4#definition-1"', 'defined_at = "2.4#definition-9"', 1),
        "defined_at 2.4#definition-9 is no paragraph",
    ),
    "a defining paragraph that is no location": (
        lambda t: t.replace('defined_at = "2.4#definition-1"', 'defined_at = "definition-1"', 1),
        'defined_at must be a paragraph like "2.3#definition-1"',
    ),
    "a found location that is none": (
        lambda t: t.replace('["002:19"', '["line 19"', 1),
        "'line 19' is no location",
    ),
    "a term without any name": (
        lambda t: t.replace('ja = "誘発忘れ"\n', "", 1),
        "has no name in any language",
    ),
    "a name with a line break": (
        lambda t: t.replace('en = "hand"', 'en = "ha\\nnd"', 1),
        "must be one line",
    ),
    "a key unsafe in a URL fragment": (lambda t: t.replace('key = "hand"', 'key = "Hand!"', 1), "term key 'Hand!'"),
    "TOML syntax": (lambda t: t.replace('key = "hand"', 'key = "hand', 1), "TOML syntax error"),
}


@pytest.mark.parametrize("problem", BROKEN)
def test_a_malformed_terms_file_changes_nothing_and_says_where_and_what(ipg, content, problem):
    break_it, message = BROKEN[problem]
    good = content / "sections" / "2.4.toml"
    good.write_text(good.read_text().replace("A player keeps her hand", "EDITED"))
    path = content / "terms.toml"
    broken = break_it(path.read_text())
    assert broken != path.read_text()
    path.write_text(broken)
    before = terms_snapshot()
    with pytest.raises(CommandError) as error:
        call_command("loadcontent", str(content), stdout=StringIO())
    assert "Nothing was loaded" in str(error.value)
    assert str(path) in str(error.value)
    assert message in str(error.value)
    assert terms_snapshot() == before
    assert not Term.objects.filter(name_en="EDITED").exists()
    err = StringIO()
    with pytest.raises(CommandError, match="structural error"):
        call_command("checkcontent", str(content), stdout=StringIO(), stderr=err)
    assert message in err.getvalue()


def test_checkcontent_counts_the_terms_and_their_missing_names(db):
    out = StringIO()
    call_command("checkcontent", stdout=out, stderr=StringIO())
    assert "terms: 31 (6 infraction, 15 game-term, 10 card); 6 without a name in en" in out.getvalue()


def test_export_after_a_name_changed_in_the_admin_loads_again(ipg, content):
    """The places a former name was found go with it: the exported file is consistent."""
    from ipgsite.editing import writing

    term = Term.objects.get(key="anticipate")
    writing.write_text(term, "ja", "予期する", by=writing.CONTENT_FILES, base_revision=term.revision)
    call_command("exportcontent", str(content), stdout=StringIO())
    text = (content / "terms.toml").read_text()
    assert 'ja = "予期する"' in text and '"予期" =' not in text
    call_command("loadcontent", str(content), stdout=StringIO())
    assert Term.objects.get(key="anticipate").name_ja == "予期する"


def test_export_after_a_paragraph_was_deleted_loads_again(ipg, content):
    """A place in a paragraph deleted since goes with it: the exported file is consistent."""
    from edits import delete
    from ipgsite.editing import writing
    from ipgsite.ipg.models import Paragraph

    term = Term.objects.get(key="hand")
    found = {**term.found, "hand": [*term.found["hand"], "2.4#example-c"]}  # "A player keeps her hand, …"
    writing.save_structure(term, {"found": found}, by=writing.CONTENT_FILES)
    delete(Paragraph.objects.get(section__number="2.4", key="example-c"))
    call_command("exportcontent", str(content), stdout=StringIO())
    assert "2.4#example-c" not in (content / "terms.toml").read_text()
    call_command("loadcontent", str(content), stdout=StringIO())


@pytest.mark.database  # where terms were found is stored as JSON
def test_the_file_says_which_names_are_outdated_or_reviewed_and_export_writes_it_back(ipg, content, tmp_path):
    from ipgsite.editing.models import State

    def state(code):
        return Status.objects.get(term__key="mulligan", language=code).state

    path = content / "terms.toml"
    path.write_text(
        path.read_text().replace('ja = "マリガン"\n', 'ja = "マリガン"\noutdated = ["zh-hans"]\nreviewed = ["ja"]\n', 1)
    )
    call_command("loadcontent", str(content), stdout=StringIO())
    assert (state("zh-hans"), state("ja"), state("en")) == (State.OUTDATED, State.REVIEWED, State.TRANSLATED)
    out = tmp_path / "out"
    shutil.copytree(content, out)
    call_command("exportcontent", str(out), stdout=StringIO())
    assert (out / "terms.toml").read_bytes() == path.read_bytes()
    call_command("loadcontent", stdout=StringIO())  # content/ again: both current, neither reviewed
    assert (state("zh-hans"), state("ja")) == (State.TRANSLATED, State.TRANSLATED)


def test_outdated_and_reviewed_name_only_translated_names(ipg, content):
    path = content / "terms.toml"
    for line, message in [
        ('ja = "マリガン"\noutdated = ["en"]\n', "outdated names 'en', which is not a translated name it has"),
        ('ja = "マリガン"\nreviewed = ["ja", "ja"]\n', "reviewed must be a list of languages, each once"),
        ('ja = "マリガン"\noutdated = ["ja"]\nreviewed = ["ja"]\n', "either outdated or reviewed"),
    ]:
        broken = content.parent / "broken"
        shutil.rmtree(broken, ignore_errors=True)
        shutil.copytree(content, broken)
        (broken / "terms.toml").write_text(path.read_text().replace('ja = "マリガン"\n', line, 1))
        with pytest.raises(CommandError, match=message):
            call_command("loadcontent", str(broken), stdout=StringIO())
