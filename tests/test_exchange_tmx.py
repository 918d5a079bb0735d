"""importtmx and the dashboard's TMX upload: the TMX of exporttmx, edited with translate-toolkit (a reader and writer
the project did not write) as a translation tool saves it, comes back through the write path with history; another
language, a stale revision, a changed source and bad files are refused and change nothing."""

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from translate.storage import tmx

from ipgsite.editing import writing
from ipgsite.editing.models import Change, State, Status
from ipgsite.exchange.inbound import COMMAND
from people import client_for, history_texts, paragraph, translator
from test_exchange import export, snapshot, upload

EXAMPLE_C = "2.3#example-c"
MINE = "プレイヤーが《闇の腹心》の誘発型能力を解決したが、公開せずにカードを手札に加えた(TMX)。"


def import_tmx(path, username, *options):
    out = StringIO()
    call_command("importtmx", str(path), "--as", username, *options, stdout=out)
    return out.getvalue()


def tus(path):
    store = tmx.tmxfile.parsefile(path.open("rb"))
    return store, {unit.getid(): unit for unit in store.units}


def edit_as_a_cat_tool(path, changes, by="hanako"):
    """Set targets as a translation tool saves its TMX: through translate-toolkit's own writer, the tool's user and
    the time on the target's tuv (as OmegaT marks its changes), every other element and prop kept."""
    store, units = tus(path)
    for id, text in changes.items():
        units[id].target = text
        tuv = units[id].xmlelement.findall("tuv")[1]
        tuv.set("changeid", by)
        tuv.set("changedate", "20261201T101010Z")
    path.write_bytes(bytes(store))


def revision_of(unit):
    return next(prop.text for prop in unit.xmlelement.findall("prop") if prop.get("type") == "x-ipg-revision")


def test_each_tu_carries_its_paragraphs_revision(ipg, tmp_path):
    path = export(tmp_path, "exporttmx", "--source", "en", "--target", "ja")
    _store, units = tus(path)
    assert units and all(revision_of(unit) == str(paragraph(*id.split("#")).revision) for id, unit in units.items())
    text = path.read_text(encoding="utf-8")
    assert text.count('<prop type="x-ipg-revision">') == len(units)


def test_round_trip_an_edited_target_is_written_through_the_write_path_with_history(ipg, tmp_path):
    person = translator("ja")
    path = export(tmp_path, "exporttmx", "--source", "en", "--target", "ja")
    before = paragraph("2.3", "example-c").text_ja
    edit_as_a_cat_tool(path, {EXAMPLE_C: MINE})
    assert 'changeid="hanako"' in path.read_text(encoding="utf-8")
    out = import_tmx(path, person.username)
    assert f"changed {EXAMPLE_C} [ja]" in out and ": 1 changed" in out
    example_c = paragraph("2.3", "example-c")
    assert example_c.text_ja == MINE
    change = Change.objects.get(paragraph=example_c, language="ja", user=person)
    assert (change.before, change.after) == (before, MINE)
    assert Status.objects.get(paragraph=example_c, language="ja").state == State.TRANSLATED
    assert history_texts(client_for(person), "2.3", "example-c", "ja")[0] == (before, MINE)
    # The same file again changes nothing more: its target is the stored text now.
    changes = Change.objects.count()
    assert ": 0 changed" in import_tmx(path, person.username)
    assert Change.objects.count() == changes


def test_json_reports_what_changed_what_was_unchanged_and_what_was_refused(ipg, tmp_path):
    person = translator("ja")
    path = export(tmp_path, "exporttmx", "--source", "en", "--target", "ja")
    _store, units = tus(path)
    before = paragraph("2.3", "example-c").text_ja
    edit_as_a_cat_tool(path, {EXAMPLE_C: MINE})
    report = json.loads(import_tmx(path, person.username, "--json"))
    assert report["written"] is True and report["refused"] == []
    assert report["changed"] == [{"id": EXAMPLE_C, "language": "ja", "before": before, "after": MINE}]
    assert sorted(report["unchanged"]) == sorted(id for id in units if id != EXAMPLE_C)


def test_a_file_in_another_language_is_refused_and_nothing_is_written(ipg, tmp_path):
    person = translator("ja")
    path = export(tmp_path, "exporttmx", "--source", "en", "--target", "zh-hans")
    edit_as_a_cat_tool(path, {"2.3#example-b": "牌手结算了触发(测试)。"})
    before, changes = snapshot(), Change.objects.count()
    with pytest.raises(CommandError, match="Nothing was imported.*translators-zh-hans"):
        import_tmx(path, person.username)
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("importtmx", str(path), "--as", person.username, "--json", stdout=out)
    report = json.loads(out.getvalue())
    assert report["written"] is False and "translators-zh-hans" in report["problems"][0]
    assert snapshot() == before and Change.objects.count() == changes


def test_an_edit_against_a_stale_revision_is_refused_and_nothing_is_written(ipg, tmp_path):
    """Someone saved the paragraph on the site after the export: the file's edit of it is refused, and nothing of
    the file is written, not even its other edits."""
    person = translator("ja")
    path = export(tmp_path, "exporttmx", "--source", "en", "--target", "ja")
    theirs = "プレイヤーが《闇の腹心》の誘発を解決し、公開し忘れた(サイトで)。"
    example_c = paragraph("2.3", "example-c")
    writing.write_text(example_c, "ja", theirs, by=translator("ja", "other-ja"), base_revision=example_c.revision)
    edit_as_a_cat_tool(path, {EXAMPLE_C: MINE, "2.3#example-a": "別の段落の新しい訳。"})
    before, changes = snapshot(), Change.objects.count()
    out = StringIO()
    with pytest.raises(CommandError, match="1 units refused"):
        call_command("importtmx", str(path), "--as", person.username, stdout=out)
    assert f"refused {EXAMPLE_C}: its ja text was changed on the site since the export, by other-ja" in out.getvalue()
    assert snapshot() == before and Change.objects.count() == changes
    assert paragraph("2.3", "example-c").text_ja == theirs
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("importtmx", str(path), "--as", person.username, "--json", stdout=out)
    report = json.loads(out.getvalue())
    assert report["written"] is False and [r["id"] for r in report["refused"]] == [EXAMPLE_C]
    assert [c["id"] for c in report["changed"]] == ["2.3#example-a"]  # what would have changed


def test_a_target_left_as_exported_does_not_undo_a_newer_edit(ipg, tmp_path):
    person = translator("ja")
    path = export(tmp_path, "exporttmx", "--source", "en", "--target", "ja")
    theirs = "新しい訳(サイトで)。"
    writing.write_text(
        paragraph("2.3", "example-c"), "ja", theirs, by=translator("ja", "other-ja"), base_revision=writing.LATEST
    )
    edit_as_a_cat_tool(path, {"2.3#example-a": "別の段落の新しい訳。"})
    assert ": 1 changed" in import_tmx(path, person.username)
    assert paragraph("2.3", "example-c").text_ja == theirs
    assert paragraph("2.3", "example-a").text_ja == "別の段落の新しい訳。"


def test_the_near_miss_another_languages_edit_since_the_export_does_not_refuse(ipg, tmp_path):
    """The revision is the paragraph's, but only a change of the target language since it is a conflict."""
    person = translator("ja")
    path = export(tmp_path, "exporttmx", "--source", "en", "--target", "ja")
    example_c = paragraph("2.3", "example-c")
    writing.write_text(
        example_c, "zh-hans", example_c.text_zh_hans + "(测试)", by=writing.CONTENT_FILES, base_revision=writing.LATEST
    )
    edit_as_a_cat_tool(path, {EXAMPLE_C: MINE})
    assert ": 1 changed" in import_tmx(path, person.username)
    assert paragraph("2.3", "example-c").text_ja == MINE


def change_the_english(key):
    p = paragraph("2.3", key)
    writing.write_text(
        p, "en", p.text_en + " Then they shuffle.", by=writing.CONTENT_FILES, base_revision=writing.LATEST
    )


def test_a_unit_whose_english_source_changed_since_the_export_is_refused(ipg, tmp_path):
    person = translator("ja")
    path = export(tmp_path, "exporttmx", "--source", "en", "--target", "ja")
    change_the_english("example-c")
    edit_as_a_cat_tool(path, {EXAMPLE_C: MINE})
    before = snapshot()
    out = StringIO()
    with pytest.raises(CommandError, match="1 units refused"):
        call_command("importtmx", str(path), "--as", person.username, stdout=out)
    assert f"refused {EXAMPLE_C}: its en source changed on the site since the export" in out.getvalue()
    assert snapshot() == before


def without_revisions(path):
    store, units = tus(path)
    for unit in units.values():
        for prop in unit.xmlelement.findall("prop"):
            if prop.get("type") == "x-ipg-revision":
                unit.xmlelement.remove(prop)
    path.write_bytes(bytes(store))
    assert "x-ipg-revision" not in path.read_text(encoding="utf-8")


def test_a_file_without_revisions_is_checked_against_its_source(ipg, tmp_path):
    """A TMX from before the revisions were exported: an edited target is written, a changed source refused, and a
    target that is an older version of the stored text (exported before someone changed it) never undoes the newer."""
    person = translator("ja")
    path = export(tmp_path, "exporttmx", "--source", "en", "--target", "ja")
    without_revisions(path)
    theirs = "新しい訳(サイトで)。"
    writing.write_text(
        paragraph("2.3", "example-a"), "ja", theirs, by=translator("ja", "other-ja"), base_revision=writing.LATEST
    )
    edit_as_a_cat_tool(path, {EXAMPLE_C: MINE})
    report = json.loads(import_tmx(path, person.username, "--json"))
    assert [c["id"] for c in report["changed"]] == [EXAMPLE_C] and "2.3#example-a" in report["unchanged"]
    assert paragraph("2.3", "example-c").text_ja == MINE
    assert paragraph("2.3", "example-a").text_ja == theirs
    change_the_english("example-b")
    edit_as_a_cat_tool(path, {"2.3#example-b": "別の訳。"})
    before = snapshot()
    with pytest.raises(CommandError, match="1 units refused"):
        import_tmx(path, person.username)
    assert snapshot() == before


def test_a_doctype_old_language_attributes_and_inline_codes_are_read(ipg, tmp_path):
    """OmegaT and translate-toolkit write a DOCTYPE naming the TMX DTD; older tools name a tuv's language with TMX
    1.1's `lang`, in any case; a segment's <ph> holds a native code, not text, and its <hi> holds text."""
    person = translator("ja")
    path = export(tmp_path, "exporttmx", "--source", "en", "--target", "ja")
    edit_as_a_cat_tool(path, {EXAMPLE_C: "最初の文。"})
    text = path.read_text(encoding="utf-8").replace("<tmx ", '<!DOCTYPE tmx SYSTEM "tmx14.dtd">\n<tmx ', 1)
    text = text.replace(
        "<seg>最初の文。</seg>", '<seg>最初の文。<ph x="1">&lt;br/&gt;</ph><hi type="x">次の文。</hi></seg>'
    )
    path.write_text(text, encoding="utf-8")
    assert ": 1 changed" in import_tmx(path, person.username)
    assert paragraph("2.3", "example-c").text_ja == "最初の文。次の文。"


def test_a_file_too_large_a_missing_file_and_an_unknown_user_are_clear_errors(ipg, tmp_path):
    person = translator("ja")
    big = tmp_path / "big.tmx"
    with big.open("wb") as file:
        file.truncate(COMMAND.bytes + 1)  # sparse: refused by its size, before it is read
    with pytest.raises(CommandError, match=f"more than {COMMAND.bytes}"):
        import_tmx(big, person.username)
    with pytest.raises(CommandError, match="cannot be read"):
        import_tmx(tmp_path / "nothing.tmx", person.username)
    with pytest.raises(CommandError, match="no active user"):
        import_tmx(big, "nobody")


TU = (
    '<tu tuid="{id}"><prop type="x-ipg-revision">{revision}</prop>'
    '<tuv xml:lang="en"><seg>{source}</seg></tuv><tuv xml:lang="{lang}"><seg>{target}</seg></tuv></tu>'
)


def tmx_file(*tus, srclang="en", version="1.4"):
    header = f'<header srclang="{srclang}" datatype="plaintext" segtype="paragraph" adminlang="en" o-tmf="x" />'
    return f'<tmx version="{version}">{header}<body>{"".join(tus)}</body></tmx>'.encode()


def tu(id=EXAMPLE_C, revision=None, source=None, lang="ja", target="私の訳。"):
    key = id.split("#")[1]
    return TU.format(
        id=id,
        revision=paragraph("2.3", key).revision if revision is None else revision,
        source=paragraph("2.3", key).text_en if source is None else source,
        lang=lang,
        target=target,
    )


BAD = {
    "not XML": (lambda: b"<tmx", "not well-formed XML"),
    "an XLIFF file": (
        lambda: b'<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"/>',
        "not TMX 1.4b: its root element is <xliff>",
    ),
    "another version": (lambda: tmx_file(tu(), version="2.0"), "not TMX 1.4b: its version is “2.0”"),
    "entities": (
        lambda: b'<?xml version="1.0"?><!DOCTYPE tmx [<!ENTITY a "aaaa">]><tmx version="1.4">&a;</tmx>',
        "declares entities",
    ),
    "no body": (lambda: b'<tmx version="1.4"><header srclang="en"/></tmx>', "no <body>"),
    "no tu": (lambda: tmx_file(), "has no tu"),
    "no tuid": (lambda: tmx_file(tu().replace(f' tuid="{EXAMPLE_C}"', "")), "tu 1 has no tuid"),
    "no such paragraph": (lambda: tmx_file(tu().replace("example-c", "example-zz")), "2.3#example-zz: the site has no"),
    "not a unit id": (lambda: tmx_file(tu().replace(EXAMPLE_C, "example-c")), "example-c is not a unit id"),
    "twice": (lambda: tmx_file(tu(), tu()), "the unit is in the file twice"),
    "a bad revision": (lambda: tmx_file(tu(revision="seven")), "x-ipg-revision “seven” is not a revision"),
    "another language": (lambda: tmx_file(tu(lang="fr")), "a tuv in “fr”, which is not one of en, zh-Hans, ja"),
    "an unknown source language": (lambda: tmx_file(tu(), srclang="*all*"), "its source language “*all*”"),
    "no source": (lambda: tmx_file(tu(), srclang="zh-Hans"), "no tuv in zh-Hans, its source language"),
    "two targets": (
        lambda: tmx_file(tu(), tu(id="2.3#example-b", lang="zh-Hans")),
        "translations into zh-Hans, ja; import one language pair per file",
    ),
}


@pytest.mark.parametrize("problem", BAD)
def test_a_bad_file_is_a_clear_error_and_changes_nothing(ipg, tmp_path, problem):
    person = translator("ja")
    make, message = BAD[problem]
    path = tmp_path / "bad.tmx"
    path.write_bytes(make())
    before = snapshot()
    with pytest.raises(CommandError, match="Nothing was imported") as error:
        import_tmx(path, person.username)
    assert message in str(error.value)
    assert snapshot() == before


def test_a_target_in_the_original_language_is_a_clear_error(ipg, tmp_path):
    """A reversed pair: Japanese as source and English as the target, which is the original of every paragraph."""
    person = translator("en", "translator-en")
    example_c = paragraph("2.3", "example-c")
    unit = (
        f'<tu tuid="{EXAMPLE_C}"><prop type="x-ipg-revision">{example_c.revision}</prop>'
        f'<tuv xml:lang="ja"><seg>{example_c.text_ja}</seg></tuv><tuv xml:lang="en"><seg>Mine.</seg></tuv></tu>'
    )
    path = tmp_path / "reversed.tmx"
    path.write_bytes(tmx_file(unit, srclang="ja"))
    with pytest.raises(CommandError, match="its en text is the original, not a translation"):
        import_tmx(path, person.username)
    assert paragraph("2.3", "example-c").text_en == example_c.text_en


# The dashboard's upload takes a TMX file as well


def test_an_uploaded_tmx_reports_what_changed_and_finds_it_in_the_history(ipg, tmp_path):
    person = translator("ja")
    client = client_for(person)
    path = tmp_path / "ipg-en-ja.tmx"
    path.write_bytes(client.get("/admin/translate/exchange/en/ja/tmx/").content)
    edit_as_a_cat_tool(path, {EXAMPLE_C: MINE})
    response = upload(client, path)
    page = response.content.decode()
    assert response.status_code == 200 and "1 text changed" in page and EXAMPLE_C in page
    assert "<title>TMX import" in page
    assert paragraph("2.3", "example-c").text_ja == MINE
    assert history_texts(client, "2.3", "example-c", "ja")[0][1] == MINE


def test_the_dashboard_offers_the_upload_for_xliff_and_tmx(ipg):
    page = client_for(translator("ja")).get("/admin/translate/").content.decode()
    assert "Import an XLIFF or TMX file you translated" in page and 'accept=".xlf,.xliff,.tmx,.xml"' in page


def test_an_uploaded_tmx_in_another_language_or_against_a_stale_revision_is_refused(ipg, tmp_path):
    person = translator("ja")
    client = client_for(person)
    chinese = export(tmp_path, "exporttmx", "--source", "en", "--target", "zh-hans")
    edit_as_a_cat_tool(chinese, {"2.3#example-b": "测试。"})
    before = snapshot()
    response = upload(client, chinese)
    page = response.content.decode()
    assert response.status_code == 403 and "Nothing was imported" in page and "translators-zh-hans" in page
    assert snapshot() == before
    stale = export(tmp_path, "exporttmx", "--source", "en", "--target", "ja")
    writing.write_text(
        paragraph("2.3", "example-c"),
        "ja",
        "サイトでの訳。",
        by=translator("ja", "other-ja"),
        base_revision=writing.LATEST,
    )
    edit_as_a_cat_tool(stale, {EXAMPLE_C: MINE, "2.3#example-a": "別の訳。"})
    before = snapshot()
    response = upload(client, stale)
    page = response.content.decode()
    assert response.status_code == 409 and "1 unit was refused" in page and EXAMPLE_C in page
    assert snapshot() == before


@pytest.mark.parametrize(
    "content, message, title",
    [
        (b"not xml at all", "not well-formed XML", "Import of a translated file"),
        (
            b"<html><body/></html>",
            "none of XLIFF 1.2, TMX 1.4b: its root element is &lt;html&gt;",
            "Import of a translated file",
        ),
        (b'<tmx version="1.4"><header srclang="en"/><body/></tmx>', "The file has no tu.", "TMX import"),
        (b" " * 5_000_001, "larger than 5000000 bytes", "Import of a translated file"),
    ],
)
def test_a_bad_tmx_upload_gets_a_clear_message_not_a_500(ipg, tmp_path, content, message, title):
    path = tmp_path / "bad.tmx"
    path.write_bytes(content)
    response = upload(client_for(translator("ja")), path)
    page = response.content.decode()
    assert response.status_code == 400 and message in page and "Nothing was imported from bad.tmx" in page
    assert f"<title>{title} |" in page


def test_an_uploaded_tmx_naming_no_paragraph_is_a_clear_error(ipg, tmp_path):
    path = tmp_path / "unknown.tmx"
    path.write_bytes(tmx_file(tu(), tu().replace("example-c", "example-zz")))
    before = snapshot()
    response = upload(client_for(translator("ja")), path)
    page = response.content.decode()
    assert response.status_code == 400 and "2.3#example-zz: the site has no such paragraph." in page
    assert "<title>TMX import |" in page
    assert snapshot() == before


def retag(path, tags):
    """The file's language tags replaced, as a tool whose project names a region writes them (ja-JP, en-US)."""
    text = path.read_text(encoding="utf-8")
    for old, new in tags.items():
        text = text.replace(f'xml:lang="{old}"', f'xml:lang="{new}"').replace(f'srclang="{old}"', f'srclang="{new}"')
    path.write_text(text, encoding="utf-8")


def test_language_tags_with_a_region_are_read_as_the_sites_languages(ipg, tmp_path):
    person = translator("ja")
    path = export(tmp_path, "exporttmx", "--source", "en", "--target", "ja")
    edit_as_a_cat_tool(path, {EXAMPLE_C: MINE})
    retag(path, {"en": "en-US", "ja": "ja-JP"})
    assert 'xml:lang="ja-JP"' in path.read_text(encoding="utf-8")
    assert f"changed {EXAMPLE_C} [ja]" in import_tmx(path, person.username)
    assert paragraph("2.3", "example-c").text_ja == MINE


def test_traditional_chinese_is_not_read_as_the_sites_simplified_chinese(ipg, tmp_path):
    """zh-CN writes simplified characters, as the site's Chinese is; zh-TW writes traditional ones: refused."""
    person = translator("zh-hans")
    path = export(tmp_path, "exporttmx", "--source", "en", "--target", "zh-hans")
    edit_as_a_cat_tool(path, {"2.3#example-b": "牌手在只该占卜一张牌的情况下占卜了两张牌(测试)。"})
    retag(path, {"zh-Hans": "zh-TW"})
    before, changes = snapshot(), Change.objects.count()
    with pytest.raises(CommandError, match="zh-TW"):
        import_tmx(path, person.username)
    assert snapshot() == before and Change.objects.count() == changes
    retag(path, {"zh-TW": "zh-CN"})
    assert "changed 2.3#example-b [zh-hans]" in import_tmx(path, person.username)


def test_a_forged_revision_cannot_overwrite_a_newer_edit(ipg, tmp_path):
    example_c = paragraph("2.3", "example-c")
    theirs = "（試験）サイトでの新しい訳。"
    writing.write_text(example_c, "ja", theirs, by=translator("ja", "other-ja"), base_revision=example_c.revision)
    path = tmp_path / "forged.tmx"
    path.write_bytes(tmx_file(tu(revision=99, target="（試験）古い訳からの訳。")))
    before = snapshot()
    out = StringIO()
    with pytest.raises(CommandError, match="1 units refused"):
        call_command("importtmx", str(path), "--as", translator("ja").username, stdout=out)
    assert f"refused {EXAMPLE_C}: its revision 99 is not one the site exported" in out.getvalue()
    assert snapshot() == before and paragraph("2.3", "example-c").text_ja == theirs
