"""exportxliff, importxliff, exporttmx, exportglossary: the files read by translate-toolkit (a reader the project did
not write), the XLIFF validated against the XLIFF 1.2 schema, and round trips through the write path."""

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from lxml import etree
from translate.storage import tmx, xliff

from ipgsite.editing import writing
from ipgsite.editing.models import Change, State, Status
from ipgsite.editing.statuses import mark_reviewed
from ipgsite.exchange.inbound import COMMAND
from ipgsite.ipg.models import Note, Paragraph
from ipgsite.terms.models import Term
from people import client_for, history_texts, paragraph, translator

SCHEMA_DIR = Path(__file__).resolve().parents[1] / ".venv" / "share" / "xliff"  # `make install` unpacks it there
STATE = xliff.xliffunit.statemap


def export(tmp_path, command, *args):
    path = tmp_path / ("-".join([command, *args]).replace("/", "_") + ".out")
    call_command(command, *args, "-o", str(path), stdout=StringIO(), stderr=StringIO())
    return path


def import_file(path, username):
    out = StringIO()
    call_command("importxliff", str(path), "--as", username, stdout=out)
    return out.getvalue()


def units_by_id(path):
    store = xliff.xlifffile.parsefile(path.open("rb"))
    return store, {unit.xmlelement.get("id"): unit for unit in store.unit_iter()}


def edit_as_a_cat_tool(path, changes):
    """Set targets and states as a translation tool saves them: through translate-toolkit's own XLIFF writer."""
    store, units = units_by_id(path)
    for id, text in changes.items():
        units[id].target = text
        units[id].set_state_n(STATE["translated"])
    path.write_bytes(bytes(store))


def xliff_schema():
    assert (SCHEMA_DIR / "xliff-core-1.2-strict.xsd").exists(), "the XLIFF 1.2 schema is missing: run make install"

    class Local(etree.Resolver):
        def resolve(self, url, pubid, context):
            if url.endswith("/xml.xsd"):
                return self.resolve_filename(str(SCHEMA_DIR / "xml.xsd"), context)
            return None

    parser = etree.XMLParser(no_network=True)
    parser.resolvers.add(Local())
    return etree.XMLSchema(etree.parse(str(SCHEMA_DIR / "xliff-core-1.2-strict.xsd"), parser))


def test_the_xliff_is_valid_xliff_1_2_and_translate_toolkit_reads_every_unit(ipg, tmp_path):
    path = export(tmp_path, "exportxliff", "--source", "en", "--target", "ja")
    notes = export(tmp_path, "exportxliff", "--source", "ja", "--target", "zh-hans")  # notes' units too
    schema = xliff_schema()
    for exported in (path, notes):
        assert schema.validate(etree.parse(str(exported))), schema.error_log
    store, units = units_by_id(path)
    assert (store.getsourcelanguage(), store.gettargetlanguage()) == ("en", "ja")
    example_c = units["2.3#example-c"]
    assert example_c.source == paragraph("2.3", "example-c").text_en
    assert example_c.target == paragraph("2.3", "example-c").text_ja
    assert example_c.xmlelement.getparent().getparent().get("original") == "2.3"
    # One unit per paragraph with English, in every section; the Japanese notes are originals, not translations.
    with_english = Paragraph.objects.exclude(text_en__isnull=True).exclude(text_en="").select_related("section")
    assert sorted(units) == sorted(f"{p.section.number}#{p.key}" for p in with_english)
    assert not any("/note-" in id for id in units)


def test_notes_are_units_named_by_their_place_with_the_state_of_their_translation(ipg, tmp_path):
    path = export(tmp_path, "exportxliff", "--source", "ja", "--target", "en", "--section", "2.3")
    _store, units = units_by_id(path)
    notes = list(paragraph("2.3", "example-c").notes.order_by("order", "pk"))
    unit = units["2.3#example-c/note-1"]
    assert unit.source == notes[0].body_ja
    assert target_state(unit) == "needs-translation" and not unit.target
    assert units["2.3#example-c/note-1"].source != units["2.3#definition-1/note-1"].source
    assert all(id.startswith("2.3#") for id in units)
    assert not any(id == "2.3#example-c" for id in units)  # English paragraphs are the originals


def target_state(unit):
    return unit.xmlelement.find("{urn:oasis:names:tc:xliff:document:1.2}target").get("state")


def test_state_follows_the_status_and_an_outdated_target_is_never_current(ipg, tmp_path):
    example_a = paragraph("2.3", "example-a")
    writing.write_text(
        example_a,
        "en",
        example_a.text_en + " Then they shuffle.",
        by=writing.CONTENT_FILES,
        base_revision=writing.LATEST,
    )
    example_b = paragraph("2.3", "example-b")
    mark_reviewed(example_b, "ja", translator("ja", "reviewer-ja"))
    path = export(tmp_path, "exportxliff", "--source", "en", "--target", "ja", "--section", "2.3")
    _store, units = units_by_id(path)
    assert Status.objects.get(paragraph=example_a, language="ja").state == State.OUTDATED
    assert target_state(units["2.3#example-a"]) == "needs-review-translation"
    assert not units["2.3#example-a"].isapproved()
    assert target_state(units["2.3#example-b"]) == "final" and units["2.3#example-b"].isapproved()
    assert target_state(units["2.3#example-c"]) == "translated"


def test_missing_translations_are_needs_translation(ipg, tmp_path):
    path = export(tmp_path, "exportxliff", "--source", "en", "--target", "zh-hans")
    _store, units = units_by_id(path)
    statuses = Status.objects.of_paragraphs().filter(language="zh-hans", state=State.MISSING)
    missing = [s.paragraph for s in statuses.exclude(paragraph__text_en="").exclude(paragraph__text_en__isnull=True)]
    assert missing
    for p in missing:
        unit = units[f"{p.section.number}#{p.key}"]
        assert target_state(unit) == "needs-translation" and not unit.target


def test_round_trip_an_edited_target_is_written_through_the_write_path_with_history(ipg, tmp_path):
    person = translator("ja")
    path = export(tmp_path, "exportxliff", "--source", "en", "--target", "ja", "--section", "2.3")
    new = "プレイヤーが《闇の腹心》の誘発型能力を解決したが、カードを公開せずに手札に加えた。"
    before = paragraph("2.3", "example-c").text_ja
    edit_as_a_cat_tool(path, {"2.3#example-c": new})
    out = import_file(path, person.username)
    assert "changed 2.3#example-c [ja]" in out and "1 changed" in out
    assert paragraph("2.3", "example-c").text_ja == new
    change = Change.objects.get(paragraph=paragraph("2.3", "example-c"), language="ja", user=person)
    assert (change.before, change.after) == (before, new)
    # The history page shows it.
    assert history_texts(client_for(person), "2.3", "example-c", "ja")[0] == (before, new)
    # Importing the same file again changes nothing more.
    assert "0 changed" in import_file(path, person.username)


def test_a_note_translated_in_a_cat_tool_is_imported(ipg, tmp_path):
    person = translator("en", "translator-en")
    path = export(tmp_path, "exportxliff", "--source", "ja", "--target", "en", "--section", "2.3")
    edit_as_a_cat_tool(path, {"2.3#example-c/note-1": "Example C is the case where the player remembers the trigger."})
    assert "changed 2.3#example-c/note-1 [en]" in import_file(path, person.username)
    note = paragraph("2.3", "example-c").notes.order_by("order", "pk").first()
    assert note.body_en == "Example C is the case where the player remembers the trigger."
    assert Status.of_notes.get(note=note, language="en").state == State.TRANSLATED
    assert Change.objects.filter(note=note, language="en", user=person).exists()


def snapshot():
    return sorted(Paragraph.objects.values_list("pk", "text_en", "text_zh_hans", "text_ja", "revision")) + sorted(
        Note.objects.values_list("pk", "body_en", "body_zh_hans", "body_ja", "revision")
    )


def test_a_file_in_another_language_is_refused_and_nothing_is_written(ipg, tmp_path):
    person = translator("ja")
    path = export(tmp_path, "exportxliff", "--source", "en", "--target", "zh-hans", "--section", "2.3")
    edit_as_a_cat_tool(path, {"2.3#example-c": "牌手结算了黑暗亲信的触发(测试)。"})
    before, changes = snapshot(), Change.objects.count()
    with pytest.raises(CommandError, match="Nothing was imported.*translators-zh-hans"):
        import_file(path, person.username)
    assert snapshot() == before and Change.objects.count() == changes


def test_a_file_whose_languages_name_a_region_is_read_as_the_sites_languages(ipg, tmp_path):
    """A tool whose project is en-US to ja-JP writes those tags on each <file>: they are the site's en and ja."""
    person = translator("ja")
    path = export(tmp_path, "exportxliff", "--source", "en", "--target", "ja", "--section", "2.3")
    edit_as_a_cat_tool(path, {"2.3#example-c": "地域付きの言語タグの訳。"})
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace('source-language="en"', 'source-language="en-US"').replace(
            'target-language="ja"', 'target-language="ja-JP"'
        ),
        encoding="utf-8",
    )
    assert 'target-language="ja-JP"' in path.read_text(encoding="utf-8")
    assert "changed 2.3#example-c [ja]" in import_file(path, person.username)
    assert paragraph("2.3", "example-c").text_ja == "地域付きの言語タグの訳。"


def test_an_edit_against_a_stale_revision_is_refused_and_nothing_is_written(ipg, tmp_path):
    person = translator("ja")
    path = export(tmp_path, "exportxliff", "--source", "en", "--target", "ja", "--section", "2.3")
    other = translator("ja", "other-ja")
    theirs = "プレイヤーが《闇の腹心》の誘発を解決し、公開し忘れた。"
    writing.write_text(
        paragraph("2.3", "example-c"), "ja", theirs, by=other, base_revision=paragraph("2.3", "example-c").revision
    )
    edit_as_a_cat_tool(path, {"2.3#example-c": "私の訳。", "2.3#example-a": "別の段落の新しい訳。"})
    before, changes = snapshot(), Change.objects.count()
    out = StringIO()
    with pytest.raises(CommandError, match="1 units refused"):
        call_command("importxliff", str(path), "--as", person.username, stdout=out)
    assert "refused 2.3#example-c: its ja text was changed on the site since the export, by other-ja" in out.getvalue()
    assert snapshot() == before and Change.objects.count() == changes
    assert paragraph("2.3", "example-c").text_ja == theirs  # nothing overwritten, the other unit not written either


def test_a_forged_revision_cannot_overwrite_a_newer_edit(ipg, tmp_path):
    """Only an export gives a unit its revision: a file claiming one the text never had (99) is refused, so that it
    cannot skip the check of the changes made since."""
    person = translator("ja")
    path = export(tmp_path, "exportxliff", "--source", "en", "--target", "ja", "--section", "2.3")
    theirs = "（試験）サイトでの新しい訳。"
    writing.write_text(
        paragraph("2.3", "example-c"), "ja", theirs, by=translator("ja", "other-ja"), base_revision=writing.LATEST
    )
    edit_as_a_cat_tool(path, {"2.3#example-c": "（試験）古い訳からの訳。"})
    text = path.read_text(encoding="utf-8")
    unit = text.index('id="2.3#example-c"')
    note = text.index('<note from="ipg-revision">', unit)
    end = text.index("</note>", note)
    path.write_text(text[:note] + '<note from="ipg-revision">99' + text[end:], encoding="utf-8")
    before = snapshot()
    out = StringIO()
    with pytest.raises(CommandError, match="1 units refused"):
        call_command("importxliff", str(path), "--as", person.username, stdout=out)
    revision = paragraph("2.3", "example-c").revision
    assert (
        f"refused 2.3#example-c: its revision 99 is not one the site exported: the text is at revision {revision}"
        in (out.getvalue())
    )
    assert snapshot() == before and paragraph("2.3", "example-c").text_ja == theirs
    response = upload(client_for(person), path)
    assert response.status_code == 409 and "its revision 99 is not one the site exported" in response.content.decode()
    assert snapshot() == before


def test_a_target_left_as_exported_does_not_undo_a_newer_edit(ipg, tmp_path):
    person = translator("ja")
    path = export(tmp_path, "exportxliff", "--source", "en", "--target", "ja", "--section", "2.3")
    theirs = "新しい訳(サイトで)。"
    writing.write_text(
        paragraph("2.3", "example-c"), "ja", theirs, by=translator("ja", "other-ja"), base_revision=writing.LATEST
    )
    edit_as_a_cat_tool(path, {"2.3#example-a": "別の段落の新しい訳。"})
    assert "1 changed" in import_file(path, person.username)
    assert paragraph("2.3", "example-c").text_ja == theirs
    assert paragraph("2.3", "example-a").text_ja == "別の段落の新しい訳。"


def test_a_unit_whose_source_changed_since_the_export_is_refused(ipg, tmp_path):
    person = translator("ja")
    path = export(tmp_path, "exportxliff", "--source", "en", "--target", "ja", "--section", "2.3")
    example_c = paragraph("2.3", "example-c")
    writing.write_text(
        example_c,
        "en",
        example_c.text_en + " Then they shuffle.",
        by=writing.CONTENT_FILES,
        base_revision=writing.LATEST,
    )
    edit_as_a_cat_tool(path, {"2.3#example-c": "私の訳。"})
    before = snapshot()
    out = StringIO()
    with pytest.raises(CommandError, match="1 units refused"):
        call_command("importxliff", str(path), "--as", person.username, stdout=out)
    assert "refused 2.3#example-c: its en source changed on the site since the export" in out.getvalue()
    assert snapshot() == before


def test_the_near_miss_another_languages_edit_since_the_export_does_not_refuse(ipg, tmp_path):
    person = translator("ja")
    path = export(tmp_path, "exportxliff", "--source", "en", "--target", "ja", "--section", "2.3")
    example_c = paragraph("2.3", "example-c")
    writing.write_text(
        example_c, "zh-hans", example_c.text_zh_hans + "(测试)", by=writing.CONTENT_FILES, base_revision=writing.LATEST
    )
    edit_as_a_cat_tool(path, {"2.3#example-c": "私の訳。"})
    assert "1 changed" in import_file(path, person.username)
    assert paragraph("2.3", "example-c").text_ja == "私の訳。"


def test_a_target_the_tool_filled_with_its_source_is_not_imported(ipg, tmp_path):
    """OmegaT writes the source text into the targets of segments left untranslated."""
    person = translator("en", "translator-en")
    path = export(tmp_path, "exportxliff", "--source", "ja", "--target", "en", "--section", "2.3")
    note = paragraph("2.3", "example-c").notes.order_by("order", "pk").first()
    edit_as_a_cat_tool(path, {"2.3#example-c/note-1": note.body_ja, "2.3#definition-1/note-1": "A translation."})
    assert "1 changed" in import_file(path, person.username)
    note.refresh_from_db()
    assert not note.body_en
    assert Status.of_notes.get(note=note, language="en").state == State.MISSING


def test_a_target_segmented_as_trados_and_memoq_write_it_is_read_as_its_text(ipg, tmp_path):
    """Trados and memoQ split a target into <mrk mtype="seg"> sentences; the import reads the text inside."""
    person = translator("ja")
    path = export(tmp_path, "exportxliff", "--source", "en", "--target", "ja", "--section", "2.3")
    ns = "urn:oasis:names:tc:xliff:document:1.2"
    tree = etree.parse(str(path))
    unit = tree.find(f".//{{{ns}}}trans-unit[@id='2.3#example-c']")
    target = unit.find(f"{{{ns}}}target")
    target.text, target.attrib["state"] = None, "translated"
    for number, sentence in enumerate(["最初の文。", "次の文。"], start=1):
        etree.SubElement(target, f"{{{ns}}}mrk", mtype="seg", mid=str(number)).text = sentence
    tree.write(str(path), encoding="utf-8", xml_declaration=True)
    assert "1 changed" in import_file(path, person.username)
    assert paragraph("2.3", "example-c").text_ja == "最初の文。次の文。"


BAD = {
    "not XML": (b"<xliff", "not well-formed XML"),
    "another format": (b"<tmx version='1.4'><body/></tmx>", "not XLIFF 1.2"),
    "entities": (
        b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">&a;</xliff>',
        "entities",
    ),
    "unknown id": (
        "2.3#example-c",
        "2.3#example-zz",
    ),
    "bad id": ("2.3#example-c", "example-c"),
    "unknown language": ('target-language="ja"', 'target-language="fr"'),
    "no revision": ('<note from="ipg-revision">', '<note from="someone">'),
    "an original as target": ('target-language="ja"', 'target-language="en"'),
}
MESSAGES = {
    "unknown id": "2.3#example-zz: the site has no such paragraph",
    "bad id": "example-c is not a unit id",
    "unknown language": "are not two of en, zh-Hans, ja",
    "no revision": 'has no <note from="ipg-revision">',
    "an original as target": "source-language “en” and target-language “en”",
}


@pytest.mark.parametrize("problem", BAD)
def test_a_bad_file_is_a_clear_error_and_changes_nothing(ipg, tmp_path, problem):
    person = translator("ja")
    path = export(tmp_path, "exportxliff", "--source", "en", "--target", "ja", "--section", "2.3")
    old, new = BAD[problem]
    if problem in MESSAGES:
        text = path.read_text(encoding="utf-8")
        assert old in text
        edit_as_a_cat_tool(path, {"2.3#example-c": "私の訳。"})
        path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
        message = MESSAGES[problem]
    else:
        path.write_bytes(old)
        message = new
    before = snapshot()
    with pytest.raises(CommandError, match="Nothing was imported") as error:
        import_file(path, person.username)
    assert message in str(error.value)
    assert snapshot() == before


def test_a_file_too_large_and_a_missing_file_are_clear_errors(ipg, tmp_path):
    person = translator("ja")
    big = tmp_path / "big.xlf"
    with big.open("wb") as file:
        file.truncate(COMMAND.bytes + 1)  # sparse: refused by its size, before it is read
    with pytest.raises(CommandError, match=f"more than {COMMAND.bytes}"):
        import_file(big, person.username)
    with pytest.raises(CommandError, match="cannot be read"):
        import_file(tmp_path / "nothing.xlf", person.username)
    with pytest.raises(CommandError, match="no active user"):
        import_file(big, "nobody")


def test_export_refuses_a_bad_pair_or_section(ipg):
    with pytest.raises(CommandError, match="two different languages"):
        call_command("exportxliff", "--source", "en", "--target", "en", stdout=StringIO())
    with pytest.raises(CommandError, match="two different languages"):
        call_command("exporttmx", "--source", "en", "--target", "fr", stdout=StringIO())
    with pytest.raises(CommandError, match="no section '9.9'"):
        call_command("exportxliff", "--source", "en", "--target", "ja", "--section", "9.9", stdout=StringIO())


def test_the_tmx_holds_each_paragraph_with_both_languages_current(ipg, tmp_path):
    example_a = paragraph("2.3", "example-a")
    writing.write_text(
        example_a,
        "en",
        example_a.text_en + " Then they shuffle.",
        by=writing.CONTENT_FILES,
        base_revision=writing.LATEST,
    )
    path = export(tmp_path, "exporttmx", "--source", "en", "--target", "zh-hans")
    store = tmx.tmxfile.parsefile(path.open("rb"))
    by_id = {unit.getid(): unit for unit in store.units}
    expected = [
        p
        for p in Paragraph.objects.select_related("section")
        if p.text_en and p.text_zh_hans and Status.objects.get(paragraph=p, language="zh-hans").state != State.OUTDATED
    ]
    assert expected and sorted(by_id) == sorted(f"{p.section.number}#{p.key}" for p in expected)
    for p in expected:
        unit = by_id[f"{p.section.number}#{p.key}"]
        assert (unit.source, unit.target) == (p.text_en, p.text_zh_hans)
    assert "2.3#example-a" not in by_id  # its Chinese follows an older English
    text = path.read_text(encoding="utf-8")
    assert 'segtype="paragraph"' in text and 'srclang="en"' in text and '<tmx version="1.4">' in text
    assert text.count('<prop type="x-release">2024-09-23</prop>') == len(expected)


def test_the_glossary_is_tab_separated_source_target_comment(ipg, tmp_path):
    path = export(tmp_path, "exportglossary", "--source", "en", "--target", "ja")
    lines = path.read_text(encoding="utf-8").splitlines()
    rows = [line.split("\t") for line in lines]
    assert all(len(row) == 3 for row in rows)
    assert ["Hidden Card Error", "非公開カードに関する誤り", "infraction: hidden-card-error"] in rows
    assert (
        len(rows)
        == Term.objects.exclude(name_en__isnull=True)
        .exclude(name_en="")
        .exclude(name_ja__isnull=True)
        .exclude(name_ja="")
        .count()
    )


# The dashboard's downloads and upload


def test_the_dashboard_offers_the_users_languages_files_only(ipg):
    page = client_for(translator("ja")).get("/admin/translate/").content.decode()
    assert 'href="/admin/translate/exchange/en/ja/xliff/"' in page
    assert 'href="/admin/translate/exchange/zh-hans/ja/tmx/"' in page
    assert 'href="/admin/translate/exchange/en/ja/glossary/"' in page
    assert "/admin/translate/exchange/en/zh-hans/" not in page
    assert 'action="/admin/translate/exchange/upload/"' in page and "csrfmiddlewaretoken" in page


def test_downloads_are_the_commands_files_and_another_language_is_403(ipg, tmp_path):
    client = client_for(translator("ja"))
    response = client.get("/admin/translate/exchange/en/ja/xliff/")
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="ipg-en-ja.xlf"'
    path = export(tmp_path, "exportxliff", "--source", "en", "--target", "ja")
    assert response.content == path.read_bytes()
    tmx_response = client.get("/admin/translate/exchange/en/ja/tmx/")
    assert tmx.tmxfile.parsestring(tmx_response.content).units
    glossary = client.get("/admin/translate/exchange/en/ja/glossary/").content.decode()
    assert "Hidden Card Error\t非公開カードに関する誤り\t" in glossary
    assert client.get("/admin/translate/exchange/en/zh-hans/xliff/").status_code == 403
    assert client.get("/admin/translate/exchange/en/fr/xliff/").status_code == 404
    assert client.get("/admin/translate/exchange/en/ja/docx/").status_code == 404
    anonymous = Client().get("/admin/translate/exchange/en/ja/xliff/")
    assert anonymous.status_code == 302 and "/admin/login/" in anonymous["Location"]


def upload(client, path):
    with path.open("rb") as file:
        return client.post("/admin/translate/exchange/upload/", {"file": file})


def test_an_upload_reports_what_changed_and_finds_it_in_the_history(ipg, tmp_path):
    person = translator("ja")
    client = client_for(person)
    path = tmp_path / "ipg-en-ja.xlf"
    path.write_bytes(client.get("/admin/translate/exchange/en/ja/xliff/").content)
    edit_as_a_cat_tool(path, {"2.3#example-c": "私の新しい訳。"})
    response = upload(client, path)
    page = response.content.decode()
    assert response.status_code == 200 and "1 text changed" in page and "2.3#example-c" in page
    assert paragraph("2.3", "example-c").text_ja == "私の新しい訳。"
    assert history_texts(client, "2.3", "example-c", "ja")[0][1] == "私の新しい訳。"


def test_an_upload_in_another_language_or_against_a_stale_revision_is_refused(ipg, tmp_path):
    person = translator("ja")
    client = client_for(person)
    chinese = export(tmp_path, "exportxliff", "--source", "en", "--target", "zh-hans")
    edit_as_a_cat_tool(chinese, {"2.3#example-c": "测试。"})
    before = snapshot()
    response = upload(client, chinese)
    assert response.status_code == 403 and "Nothing was imported" in response.content.decode()
    assert "translators-zh-hans" in response.content.decode()
    stale = export(tmp_path, "exportxliff", "--source", "en", "--target", "ja")
    writing.write_text(
        paragraph("2.3", "example-c"),
        "ja",
        "サイトでの訳。",
        by=translator("ja", "other-ja"),
        base_revision=writing.LATEST,
    )
    before = snapshot()
    edit_as_a_cat_tool(stale, {"2.3#example-c": "私の訳。", "2.3#example-a": "別の訳。"})
    response = upload(client, stale)
    page = response.content.decode()
    assert response.status_code == 409 and "1 unit was refused" in page and "2.3#example-c" in page
    assert snapshot() == before


def test_the_upload_action_checks_then_imports_as_the_user(ipg, tmp_path):
    """UploadExchangeFile, the dashboard upload's action: check() refuses what cannot be read at all, execute()
    imports through the write path or refuses, naming each problem, with the status the page answers."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from ipgsite.exchange.actions import UploadExchangeFile, UploadRefused

    person = translator("ja")
    with pytest.raises(UploadRefused) as no_file:
        UploadExchangeFile(person, None).check()
    assert no_file.value.status == 400 and "Choose an XLIFF or TMX file" in no_file.value.problems[0]
    path = export(tmp_path, "exportxliff", "--source", "en", "--target", "ja", "--section", "2.3")
    edit_as_a_cat_tool(path, {"2.3#example-c": "（試験）道具の訳。"})
    action = UploadExchangeFile(person, SimpleUploadedFile("ipg-en-ja.xlf", path.read_bytes()))
    action.check()
    format, report = action.execute()
    assert format == xliff_format() and [change[0] for change in report.changed] == ["2.3#example-c"]
    assert paragraph("2.3", "example-c").text_ja == "（試験）道具の訳。"
    chinese = export(tmp_path, "exportxliff", "--source", "en", "--target", "zh-hans", "--section", "2.3")
    edit_as_a_cat_tool(chinese, {"2.3#example-c": "测试。"})
    before = snapshot()
    with pytest.raises(UploadRefused) as denied:
        UploadExchangeFile(person, SimpleUploadedFile("zh.xlf", chinese.read_bytes())).execute()
    assert denied.value.status == 403 and "translators-zh-hans" in denied.value.problems[0]
    with pytest.raises(UploadRefused) as garbled:
        UploadExchangeFile(person, SimpleUploadedFile("bad.xlf", b"not xml at all")).execute()
    assert garbled.value.status == 400 and "not well-formed XML" in " ".join(garbled.value.problems)
    assert snapshot() == before


def xliff_format():
    from ipgsite.exchange import xliff as site_xliff

    return site_xliff.FORMAT


@pytest.mark.parametrize(
    "content, message",
    [
        (b"not xml at all", "not well-formed XML"),
        (b"<html><body/></html>", "none of XLIFF 1.2, TMX 1.4b: its root element is &lt;html&gt;"),
        (b" " * 5_000_001, "larger than 5000000 bytes"),
    ],
)
def test_a_bad_upload_gets_a_clear_message_not_a_500(ipg, tmp_path, content, message):
    path = tmp_path / "bad.xlf"
    path.write_bytes(content)
    response = upload(client_for(translator("ja")), path)
    assert response.status_code == 400 and message in response.content.decode()


def test_an_upload_needs_a_file_and_the_csrf_token(ipg):
    person = translator("ja")
    response = client_for(person).post("/admin/translate/exchange/upload/", {})
    assert response.status_code == 400 and "Choose an XLIFF or TMX file" in response.content.decode()
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(person, backend="django.contrib.auth.backends.ModelBackend")
    assert strict.post("/admin/translate/exchange/upload/", {}).status_code == 403


def test_a_file_too_big_for_the_web_is_refused_with_the_command_to_use_which_imports_it(ipg, tmp_path, settings):
    person = translator("ja")
    client = client_for(person)
    path = export(tmp_path, "exportxliff", "--source", "en", "--target", "ja")  # every section: more than 20 units
    edit_as_a_cat_tool(path, {"2.3#example-a": "（試験）大きなファイルの訳。", "2.3#example-b": "（試験）二つ目。"})
    units = len(units_by_id(path)[1])
    before = snapshot()
    for limits, message in [
        ({"bytes": 5_000_000, "units": 20, "changes": 1_000}, f"The file has {units} units; a file uploaded here "),
        ({"bytes": 5_000_000, "units": 5_000, "changes": 1}, "The file changes 2 texts; a file uploaded here "),
        ({"bytes": 1_000, "units": 5_000, "changes": 1_000}, "The file is larger than 1000 bytes."),
    ]:
        settings.EXCHANGE_WEB_LIMITS = limits
        response = upload(client, path)
        page = response.content.decode()
        assert response.status_code == 400 and message in page
        assert "manage.py importxliff FILE --as USERNAME" in page
        assert snapshot() == before
    assert "2 changed" in import_file(path, person.username)  # the command takes it
    assert paragraph("2.3", "example-b").text_ja == "（試験）二つ目。"


def test_a_file_of_35000_unknown_units_is_looked_up_in_a_few_queries(ipg, tmp_path, django_assert_max_num_queries):
    """Each unit was once looked up with a query of its own: minutes for this file. Now the whole file is looked up
    at once, and the report names the first hundred problems and counts the rest."""
    units = "".join(
        f'<trans-unit id="2.3#unknown-{n}"><source>Text {n}.</source><target>訳 {n}。</target>'
        '<note from="ipg-revision">1</note></trans-unit>'
        for n in range(35_000)
    )
    path = tmp_path / "unknown.xlf"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">'
        f'<file original="2.3" source-language="en" target-language="ja" datatype="plaintext"><body>{units}</body>'
        "</file></xliff>",
        encoding="utf-8",
    )
    assert 4_500_000 < path.stat().st_size < 5_000_000  # within the web's bytes, as the translator's file was
    person = translator("ja")
    with django_assert_max_num_queries(12), pytest.raises(CommandError) as error:
        call_command("importxliff", str(path), "--as", person.username, stdout=StringIO())
    problems = str(error.value).splitlines()[1:]
    assert len(problems) == 101 and problems[0].strip() == "2.3#unknown-0: the site has no such paragraph."
    assert problems[-1].strip() == "… and 34900 more problems."
    # On the web it is refused for its number of units, before any is looked up.
    client = client_for(person)
    with django_assert_max_num_queries(12):
        response = upload(client, path)
    assert response.status_code == 400 and "The file has 35000 units" in response.content.decode()
