"""content/terms.toml says where each name stands: `found` cites seed lines (the seeds the repository keeps,
settings.SEEDS_DIR) and paragraphs that hold the form itself, and checkcontent checks each one; `not_in` and
`attested_by_variants` are loaded, exported and checked like the other fields."""

import shutil
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from ipgsite.terms.models import Term
from pages import parse, term_mark


@pytest.fixture
def content(tmp_path):
    copy = tmp_path / "content"
    shutil.copytree(settings.CONTENT_DIR, copy)
    return copy


def check(content, edit, *, seeds=None):
    """checkcontent's errors ("" when it passes) after this edit of the copy's terms.toml."""
    path = content / "terms.toml"
    text = path.read_text()
    edited = edit(text)
    assert edited != text
    path.write_text(edited)
    err = StringIO()
    options = {"seeds": str(seeds)} if seeds else {}
    try:
        call_command("checkcontent", str(content), stdout=StringIO(), stderr=err, **options)
    except CommandError:
        assert err.getvalue()
        return err.getvalue()
    return ""


def test_the_content_cites_only_places_that_hold_their_names(db):
    out, err = StringIO(), StringIO()
    call_command("checkcontent", stdout=out, stderr=err)
    assert err.getvalue() == ""
    assert settings.SEEDS_DIR.is_relative_to(settings.BASE_DIR)  # in the repository, as CI has it


def test_a_seed_or_line_that_does_not_exist_is_refused(db, content):
    errors = check(content, lambda t: t.replace('"hand" = ["000:25", "000:27"]', '"hand" = ["999:99999"]'))
    assert "term 'hand': found.'hand' cites 999:99999, but there is no seed 999 (there are: 000, 001, 002" in errors
    errors = check(content, lambda t: t.replace('"手牌" = ["000:28", "000:40"]', '"手牌" = ["000:28", "002:99999"]'))
    assert "found.'手牌' cites 002:99999, but seed 002 has only 44 lines" in errors
    # the near miss: lines that exist and hold the names
    restored = check(
        content, lambda t: t.replace('["999:99999"]', '["000:25", "000:27"]').replace('"002:99999"', '"000:40"')
    )
    assert restored == ""


def test_a_line_holding_only_another_inflection_is_no_place_for_the_name(db, content):
    # 000:23 and 002:19 hold "scries", "scried" and "Scrying", never "scry"
    errors = check(
        content,
        lambda t: t.replace('attested_by_variants = ["en"]\n', "", 1).replace(
            '"scries" = ["000:23"', '"scry" = ["000:23", "002:19"]\n"scries" = ["000:23"'
        ),
    )
    assert "found.'scry' cites 000:23, which does not hold 'scry' itself" in errors
    assert "found.'scry' cites 002:19, which does not hold 'scry' itself" in errors
    assert "scries" not in errors  # its own places hold it


def test_a_name_inside_a_phrase_it_is_not_in_is_no_place_for_it(db, content):
    # 001:22 holds 非公開領域, the hidden zone, and no 公開領域 of its own
    errors = check(content, lambda t: t.replace('"公開領域" = ["001:26"]', '"公開領域" = ["001:22", "001:26"]'))
    assert "found.'公開領域' cites 001:22, which does not hold '公開領域' itself" in errors
    assert "001:26" not in errors
    # the near miss: the same line's マリガン手順の誤り, the infraction's name, does attest マリガン, the mulligan
    assert "マリガン" not in errors and '"マリガン" = ["001:22"]' in (content / "terms.toml").read_text()


def test_a_paragraph_place_must_hold_the_name_too(db, content):
    errors = check(content, lambda t: t.replace('"hand" = ["000:25", "000:27"]', '"hand" = ["2.3#philosophy-5"]'))
    assert "found.'hand' cites 2.3#philosophy-5, which does not hold 'hand' itself" in errors  # "with one hand"
    assert check(content, lambda t: t.replace('["2.3#philosophy-5"]', '["2.3#example-c"]')) == ""  # "their hand"


def test_without_the_seeds_a_seed_place_is_refused_clearly(db, content, tmp_path):
    empty = tmp_path / "no-seeds"
    empty.mkdir()
    errors = check(content, lambda t: t.replace('"hand" = ["000:25"', '"hand" = ["000:26"'), seeds=empty)
    assert "but there is no seed 000 (there are: none)" in errors
    assert str(empty) in errors


BROKEN = {
    "a not_in phrase without the term's name": (
        lambda t: t.replace('en = ["with one hand"]', 'en = ["with one finger"]'),
        "term 'hand': the not_in phrase 'with one finger' holds none of its en forms",
    ),
    "a not_in phrase that is the name itself": (
        lambda t: t.replace('en = ["with one hand"]', 'en = ["Hand"]'),
        "term 'hand': the not_in phrase 'Hand' is one of its own forms",
    ),
    "a not_in phrase in a language of no name": (
        lambda t: t.replace('ja = ["非公開領域"]', 'ja = ["非公開領域"]\nfr = ["zone publique"]'),
        "unknown field 'fr'",
    ),
    "a not_in phrase on two lines": (
        lambda t: t.replace('en = ["with one hand"]', 'en = ["with one\\nhand"]'),
        "must be one line",
    ),
    "a name attested by variants it does not have": (
        lambda t: t.replace('ja = "手札"\n', 'ja = "手札"\nattested_by_variants = ["en"]\n'),
        "term 'hand': attested_by_variants names 'en', but it has no en name with variants",
    ),
    "a place for a name attested only by its variants": (
        lambda t: t.replace('"scries" = ["000:23"', '"scry" = ["002:19"]\n"scries" = ["000:23"'),
        "term 'scry': found lists 'scry', which attested_by_variants says no text holds",
    ),
}


@pytest.mark.parametrize("problem", BROKEN)
def test_a_malformed_not_in_or_attestation_is_refused_and_changes_nothing(ipg, content, problem):
    edit, message = BROKEN[problem]
    path = content / "terms.toml"
    before = list(Term.objects.values_list("key", "not_in", "attested_by_variants", "found"))
    path.write_text(edit(path.read_text()))
    with pytest.raises(CommandError) as error:
        call_command("loadcontent", str(content), stdout=StringIO())
    assert message in str(error.value)
    assert list(Term.objects.values_list("key", "not_in", "attested_by_variants", "found")) == before
    assert message in check(content, lambda t: t + "\n")


def test_not_in_and_attested_by_variants_are_loaded_and_exported(ipg, content, tmp_path):
    assert Term.objects.get(key="hand").not_in == {"en": ["with one hand"]}
    assert Term.objects.get(key="scry").attested_by_variants == ["en"]
    path = content / "terms.toml"
    path.write_text(path.read_text().replace('en = ["with one hand"]', 'en = ["with one hand", "hand over hand"]', 1))
    call_command("loadcontent", str(content), stdout=StringIO())
    assert Term.objects.get(key="hand").not_in == {"en": ["with one hand", "hand over hand"]}
    out = tmp_path / "out"
    shutil.copytree(content, out)
    call_command("exportcontent", str(out), stdout=StringIO())
    assert (out / "terms.toml").read_bytes() == path.read_bytes()


def test_a_not_in_phrase_removed_from_the_file_marks_the_term_there_again(ipg, content, client):
    def hand_marked():
        root = parse(client.get("/en/ipg/2.3/").content.decode())
        return term_mark(root.by_id("philosophy-5"), "hand") is not None

    assert not hand_marked()
    path = content / "terms.toml"
    path.write_text(path.read_text().replace('\n[terms.not_in]\nen = ["with one hand"]\n', "", 1))
    call_command("loadcontent", str(content), stdout=StringIO())
    assert hand_marked()
