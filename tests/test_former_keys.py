"""Paragraph keys and their addresses never change; a key that must change leaves its old one redirecting."""

import shutil
from io import StringIO

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command

from ipgsite.editing import writing
from ipgsite.editing.models import Change
from ipgsite.ipg.models import FormerKey, Paragraph
from people import editor


def rename(ipg, number, key, new, by=writing.CONTENT_FILES):
    paragraph = ipg.get(number=number).paragraphs.get(key=key)
    return writing.save_structure(paragraph, {"key": new}, by=by)


def test_a_renamed_paragraph_keeps_its_old_key(ipg):
    paragraph = rename(ipg, "2.3", "example-c", "example-c-confidant", by=editor())
    assert list(paragraph.former_keys.values_list("key", flat=True)) == ["example-c"]


def test_the_old_addresses_redirect_to_the_new_key(client, ipg):
    rename(ipg, "2.3", "example-c", "example-c-confidant")
    response = client.get("/ja/ipg/2.3/example-c/?langs=en,ja")
    assert response.status_code == 301 and response["Location"] == "/ja/ipg/2.3/example-c-confidant/?langs=en,ja"
    assert "闇の腹心" in client.get(response["Location"]).content.decode()
    api = client.get("/api/ipg/2.3/example-c/")
    assert api.status_code == 301 and api["Location"] == "/api/ipg/2.3/example-c-confidant/"
    assert client.get("/api/ipg/2.3/example-c/", follow=True).json()["former_keys"] == ["example-c"]
    picture = client.get("/en/ipg/2.3/example-c/preview.png")
    assert picture.status_code == 301 and picture["Location"] == "/en/ipg/2.3/example-c-confidant/preview.png"
    oembed = client.get("/oembed/", {"url": "http://testserver/en/ipg/2.3/example-c/", "format": "json"})
    assert oembed.status_code == 200 and "Dark Confidant" in oembed.json()["html"]


def test_an_old_fragment_still_lands_on_the_paragraph(client, ipg):
    rename(ipg, "2.3", "example-c", "example-c-confidant")
    html = client.get("/en/ipg/2.3/").content.decode()
    start = html.index('id="example-c-confidant"')
    assert '<span id="example-c"></span>' in html[start : start + 400]
    assert html.count('id="example-c"') == 1


def test_a_release_holding_the_old_key_answers_under_either_key(client, ipg):
    rename(ipg, "2.3", "example-c", "example-c-confidant")
    for key in ("example-c", "example-c-confidant"):
        page = client.get(f"/en/ipg/2.3/{key}/?release=2024-09-23")
        assert page.status_code == 200 and "Dark Confidant" in page.content.decode()
        data = client.get(f"/api/ipg/2.3/{key}/?release=2024-09-23").json()
        assert data["key"] == "example-c" and data["label"] == "C"


def test_an_unknown_key_is_still_a_404(client, ipg):
    rename(ipg, "2.3", "example-c", "example-c-confidant")
    assert client.get("/en/ipg/2.3/example-q/").status_code == 404
    assert client.get("/api/ipg/2.3/example-q/").status_code == 404


def test_an_old_key_never_leads_to_another_paragraph(ipg):
    rename(ipg, "2.3", "example-c", "example-c-confidant")
    with pytest.raises(ValidationError, match="was the key of another paragraph"):
        rename(ipg, "2.3", "example-d", "example-c")
    with pytest.raises(ValidationError):
        writing.save_structure(
            Paragraph(section=ipg.get(number="2.3"), key="example-c"), {"part": "example", "order": 50}, by=editor()
        )
    # Another section's paragraph may take it: addresses are per section.
    rename(ipg, "2.3", "example-f", "example-f-first-turn")
    assert rename(ipg, "2.4", "example-d", "example-f").key == "example-f"


def test_renamed_back_a_key_is_current_again(client, ipg):
    rename(ipg, "2.3", "example-c", "example-c-confidant")
    paragraph = rename(ipg, "2.3", "example-c-confidant", "example-c")
    assert list(paragraph.former_keys.values_list("key", flat=True)) == ["example-c-confidant"]
    assert client.get("/en/ipg/2.3/example-c/").status_code == 200
    assert client.get("/en/ipg/2.3/example-c-confidant/")["Location"] == "/en/ipg/2.3/example-c/"


def test_a_translator_cannot_rename_a_key(ipg):
    from django.core.exceptions import PermissionDenied

    from people import translator

    with pytest.raises(PermissionDenied):
        rename(ipg, "2.3", "example-c", "example-c-confidant", by=translator("ja"))
    assert not FormerKey.objects.exists()


# Content files


@pytest.fixture
def content(tmp_path):
    copy = tmp_path / "content"
    shutil.copytree(settings.CONTENT_DIR, copy)
    return copy


@pytest.mark.database  # through the database's own storage
def test_export_writes_former_keys_and_loading_them_back_changes_nothing(ipg, tmp_path):
    rename(ipg, "2.3", "remedy-2", "remedy-2-shuffle")
    out = tmp_path / "exported"
    call_command("exportcontent", str(out), stdout=StringIO())
    text = (out / "sections" / "2.3.toml").read_text()
    assert 'key = "remedy-2-shuffle"\nformer_keys = ["remedy-2"]\npart = "additional-remedy"\n' in text
    pk = Paragraph.objects.get(key="remedy-2-shuffle").pk
    call_command("loadcontent", str(out), stdout=StringIO())
    assert Paragraph.objects.get(key="remedy-2-shuffle").pk == pk
    assert list(FormerKey.objects.values_list("key", flat=True)) == ["remedy-2"]


def test_a_key_renamed_in_the_files_keeps_the_paragraph_its_notes_and_history(client, ipg, content):
    paragraph = ipg.get(number="2.3").paragraphs.get(key="remedy-2")
    writing.write_text(paragraph, "ja", "翻訳。", by=writing.CONTENT_FILES, base_revision=writing.LATEST)
    writing.add_note(
        paragraph,
        language="ja",
        source="Japanese annotated edition",
        order=1,
        bodies={"ja": "注釈。"},
        by=writing.CONTENT_FILES,
    )
    call_command("exportcontent", str(content), stdout=StringIO())
    notes = list(paragraph.notes.values_list("pk", flat=True))
    history = Change.objects.filter(paragraph=paragraph).count()
    path = content / "sections" / "2.3.toml"
    path.write_text(
        path.read_text()
        .replace('key = "remedy-2"\n', 'key = "remedy-2-shuffle"\nformer_keys = ["remedy-2"]\n')
        .replace('paragraph = "remedy-2"\n', 'paragraph = "remedy-2-shuffle"\n')
    )
    call_command("loadcontent", str(content), stdout=StringIO())
    renamed = Paragraph.objects.get(section__number="2.3", key="remedy-2-shuffle")
    assert renamed.pk == paragraph.pk and list(renamed.notes.values_list("pk", flat=True)) == notes
    assert Change.objects.filter(paragraph=renamed).count() >= history
    assert renamed.text_ja == "翻訳。" and history > 0
    assert client.get("/en/ipg/2.3/remedy-2/")["Location"] == "/en/ipg/2.3/remedy-2-shuffle/"


def test_a_key_changed_in_the_files_without_former_keys_is_a_new_paragraph(ipg, content):
    # The near miss: without `former_keys` the old address is gone, as the file says.
    path = content / "sections" / "2.3.toml"
    path.write_text(
        path.read_text()
        .replace('key = "remedy-2"\n', 'key = "remedy-2-shuffle"\n')
        .replace('paragraph = "remedy-2"\n', 'paragraph = "remedy-2-shuffle"\n')
    )
    call_command("loadcontent", str(content), stdout=StringIO())
    assert not FormerKey.objects.exists()
    assert not Paragraph.objects.filter(section__number="2.3", key="remedy-2").exists()


@pytest.mark.parametrize(
    ("former", "message"),
    [
        ('["example-d"]', "former key 'example-d' is the key of another paragraph"),
        ('["remedy-2", "remedy-2"]', "listed twice"),
        ('["Example C"]', "is not a paragraph key"),
        ('"remedy-2"', "former_keys must be a list of keys"),
    ],
)
def test_bad_former_keys_are_refused_with_the_file_and_line(ipg, content, former, message):
    path = content / "sections" / "2.3.toml"
    path.write_text(path.read_text().replace('key = "example-b"\n', f'key = "example-b"\nformer_keys = {former}\n'))
    with pytest.raises(CommandError, match=message) as error:
        call_command("loadcontent", str(content), stdout=StringIO())
    assert "2.3.toml:" in str(error.value)
    assert not FormerKey.objects.exists()


HIDDEN_CARD_ERROR = "/en/finder/in-game/shown/yes/yes/"  # 2.3 example C's recorded path


def test_a_key_renamed_in_the_admin_moves_the_finders_citations_and_its_worked_example(client, ipg, tmp_path):
    by = editor()
    rename(ipg, "2.3", "definition-1", "definition-1-hidden", by=by)
    rename(ipg, "2.3", "example-c", "example-c-confidant", by=by)
    outcome = client.get(HIDDEN_CARD_ERROR).content.decode()
    assert 'href="/en/ipg/2.3/#definition-1-hidden"' in outcome
    finder = client.get("/en/finder/").content.decode()
    assert "Example C of 2.3" in finder and "example-c-confidant" in finder
    out = tmp_path / "exported"
    call_command("exportcontent", str(out), stdout=StringIO())
    toml = (out / "finder.toml").read_text()
    assert 'paragraph = "2.3#example-c-confidant"' in toml and '"2.3#definition-1"' not in toml
    call_command("checkcontent", str(out), stdout=StringIO())  # refused, before: "cites 2.3#definition-1, but …"


def test_keys_renamed_twice_in_one_batch_are_cited_by_the_last(client, ipg):
    by = editor()
    with writing.batch(by):
        rename(ipg, "2.3", "definition-1", "definition-1-a", by=by)
        rename(ipg, "2.3", "definition-1-a", "definition-1-b", by=by)
    assert 'href="/en/ipg/2.3/#definition-1-b"' in client.get(HIDDEN_CARD_ERROR).content.decode()


def test_a_renamed_key_moves_only_its_own_citations(ipg):
    # The near miss: 2.1 and 2.4 have a definition-1 too, and "2.3#definition-10" is not "2.3#definition-1".
    from ipgsite.finder.models import Question

    others = {q.key: q.cites for q in Question.objects.all() if "2.3#definition-1" not in q.cites}
    assert any("2.4#definition-1" in cites for cites in others.values())
    rename(ipg, "2.3", "definition-1", "definition-1-hidden", by=editor())
    assert {q.key: q.cites for q in Question.objects.filter(key__in=others)} == others


def test_a_renumbered_section_moves_the_citations_of_its_paragraphs(ipg):
    from ipgsite.finder.models import Example, Outcome

    examples = Example.objects.filter(paragraph__startswith="2.4#").count()
    writing.save_structure(ipg.get(number="2.4"), {"number": "2.9"}, by=editor())
    assert "2.9#definition-1" in Outcome.objects.get(key="mulligan-procedure-error").cites
    assert Example.objects.filter(paragraph__startswith="2.9#").count() == examples > 0
    assert not Example.objects.filter(paragraph__startswith="2.4#").exists()


def test_where_a_term_was_found_follows_a_renamed_paragraph(ipg):
    from ipgsite.terms.models import Term

    term = Term.objects.get(key="hidden-card-error")
    Term.objects.filter(pk=term.pk).update(found={**term.found, "Hidden Card Error": ["000:5", "2.3#definition-1"]})
    rename(ipg, "2.3", "definition-1", "definition-1-hidden", by=editor())
    term.refresh_from_db()
    assert term.found["Hidden Card Error"] == ["000:5", "2.3#definition-1-hidden"]


def test_a_key_renamed_and_back_in_one_batch_leaves_its_citations(client, ipg):
    by = editor()
    with writing.batch(by):
        rename(ipg, "2.3", "definition-1", "definition-1-a", by=by)
        rename(ipg, "2.3", "definition-1-a", "definition-1", by=by)
    assert 'href="/en/ipg/2.3/#definition-1"' in client.get(HIDDEN_CARD_ERROR).content.decode()
