"""exporttbx and importtbx: the termbase as TBX-Basic, round trip, rights, and files that must change nothing."""

import tracemalloc
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from ipgsite.editing import writing
from ipgsite.editing.models import Change, State, Status
from ipgsite.terms.models import Term
from people import translator


def snapshot():
    columns = [f"{f}_{c}" for f in ("name", "variants", "inflections") for c in ("en", "zh_hans", "ja")]
    return [
        (key, kind, order, defined, sorted((form, tuple(places)) for form, places in found.items()), *rest)
        for key, kind, order, defined, found, *rest in Term.objects.order_by("key").values_list(
            "key", "kind", "order", "defined_in", "found", *columns
        )
    ]


def export(path):
    call_command("exporttbx", str(path), stdout=StringIO(), stderr=StringIO())
    return path.read_bytes()


def run_import(path, *args):
    out = StringIO()
    call_command("importtbx", str(path), *args, stdout=out)
    return out.getvalue()


@pytest.mark.database  # where terms were found is stored as JSON
def test_export_then_import_into_an_empty_termbase_gives_the_same_terms_and_file(ipg, tmp_path):
    before = snapshot()
    first = export(tmp_path / "terms.tbx")
    with writing.batch(writing.CONTENT_FILES):
        for term in Term.objects.all():
            writing.delete(term, by=writing.CONTENT_FILES)
    assert not Term.objects.exists()
    assert "31 created, 0 updated, 0 unchanged" in run_import(tmp_path / "terms.tbx")
    assert snapshot() == before
    assert export(tmp_path / "again.tbx") == first
    assert Status.objects.get(term__key="disguise", language="ja").state == State.MISSING


def test_the_export_is_tbx_basic_with_names_variants_and_definitions(ipg, tmp_path):
    text = export(tmp_path / "terms.tbx").decode()
    assert '<martif type="TBX-Basic" xml:lang="en">' in text
    entry = text.split('<termEntry id="mulligan-procedure-error">', 1)[1].split("</termEntry>", 1)[0]
    assert '<descrip type="subjectField">infraction</descrip>' in entry
    assert 'target="ipg:2.4#definition-1"' in entry
    assert '<langSet xml:lang="ja">' in entry and "<term>マリガン手順の誤り</term>" in entry
    assert "A player makes an error as part of the mulligan process." in entry  # the paragraph's own text
    draw = text.split('<termEntry id="draw">', 1)[1].split("</termEntry>", 1)[0]
    assert "<term>drew</term>" in draw and "<note>inflection</note>" in draw


def test_importing_a_translators_names_goes_through_the_write_path(ipg, tmp_path):
    path = tmp_path / "terms.tbx"
    text = export(path).decode()
    path.write_text(text.replace("<term>伪装</term>", "<term>伪装(测试)</term>"), encoding="utf-8")
    person = translator("zh-hans")
    assert "1 updated, 30 unchanged" in run_import(path, "--as", person.username)
    term = Term.objects.get(key="disguise")
    assert term.name_zh_hans == "伪装(测试)"
    change = Change.objects.get(term=term, language="zh-hans", field="name", user=person)
    assert (change.before, change.after) == ("伪装", "伪装(测试)")
    # A name in a language the translator does not translate is refused, and nothing of the file is written.
    path.write_text(
        text.replace("<term>伪装</term>", "<term>伪装(再测试)</term>").replace(
            "<term>戦場</term>", "<term>戦場(テスト)</term>"
        ),
        encoding="utf-8",
    )
    before = snapshot()
    with pytest.raises(CommandError, match="Nothing was imported.*translators-ja"):
        run_import(path, "--as", person.username)
    assert snapshot() == before


BAD = {
    "not XML": (b"this is no xml", "not well-formed XML"),
    "another format": (b"<tmx version='1.4'><body/></tmx>", "root element is <tmx>, not <martif>"),
    "a billion laughs": (
        b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>'
        b"<martif><text><body/></text></martif>",
        "refused: the file declares EntitiesForbidden",
    ),
    "an external entity": (
        b'<?xml version="1.0"?><!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
        b"<martif><text><body><termEntry id='hand'><langSet xml:lang='en'><tig><term>&x;</term></tig></langSet>"
        b"</termEntry></body></text></martif>",
        "refused",
    ),
    "an unknown language": (
        b"<martif><text><body><termEntry id='hand'><langSet xml:lang='fr'><tig><term>main</term></tig></langSet>"
        b"</termEntry></body></text></martif>",
        "langSet xml:lang='fr' is none of en, zh-hans, ja",
    ),
    "a bad key": (
        b"<martif><text><body><termEntry id='Hand!'/></body></text></martif>",
        "the id must be a term key",
    ),
    "a new term without a kind": (
        b"<martif><text><body><termEntry id='new-term'><langSet xml:lang='en'><tig><term>Zzyzx</term></tig>"
        b"</langSet></termEntry></body></text></martif>",
        "a new term needs its kind",
    ),
    "a name another term has": (
        b"<martif><text><body><termEntry id='hand'><langSet xml:lang='en'><tig><term>library</term></tig>"
        b"</langSet></termEntry></body></text></martif>",
        "the en name 'library' is already the name of term 'library'",
    ),
    "a defining paragraph that does not exist": (
        b"<martif><text><body><termEntry id='hand'><xref type='externalCrossReference' target='ipg:2.3#definition-9'/>"
        b"</termEntry></body></text></martif>",
        "the defining paragraph 2.3#definition-9 does not exist",
    ),
    "two preferred names": (
        b"<martif><text><body><termEntry id='hand'><langSet xml:lang='en'><tig><term>hand</term></tig>"
        b"<tig><term>hands</term></tig></langSet></termEntry></body></text></martif>",
        "two preferred names",
    ),
    "an empty term": (
        b"<martif><text><body><termEntry id='hand'><langSet xml:lang='en'><tig><term> </term></tig></langSet>"
        b"</termEntry></body></text></martif>",
        "a <term> must hold a name",
    ),
    "a NUL byte": (b"<martif>\x00</martif>", "not well-formed XML"),
}


@pytest.mark.parametrize("problem", BAD)
def test_a_bad_file_changes_nothing_and_says_what_is_wrong(ipg, tmp_path, problem):
    data, message = BAD[problem]
    path = tmp_path / "bad.tbx"
    path.write_bytes(data)
    before = snapshot()
    with pytest.raises(CommandError) as error:
        run_import(path)
    assert "Nothing was imported" in str(error.value)
    assert message in str(error.value)
    assert snapshot() == before


def test_a_missing_file_and_an_unknown_user_are_clear_errors(ipg, tmp_path):
    with pytest.raises(CommandError, match="cannot be read"):
        run_import(tmp_path / "absent.tbx")
    path = tmp_path / "terms.tbx"
    export(path)
    with pytest.raises(CommandError, match="no active user 'nobody'"):
        run_import(path, "--as", "nobody")


def test_a_file_too_large_is_refused_before_it_is_read(ipg, tmp_path):
    path = tmp_path / "huge.tbx"
    with path.open("wb") as file:
        file.truncate(60_000_000)  # sparse: 60 MB that take no disk
    before = snapshot()
    tracemalloc.start()
    try:
        with pytest.raises(CommandError) as error:
            run_import(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert "Nothing was imported" in str(error.value)
    assert "the file is 60000000 bytes; at most 5000000 are read" in str(error.value)
    assert peak < 10_000_000  # the file was never read into memory
    assert snapshot() == before


def test_a_file_of_the_largest_size_is_read(ipg, tmp_path):
    path = tmp_path / "large.tbx"
    path.write_bytes(b" " * 5_000_000)
    with pytest.raises(CommandError) as error:
        run_import(path)
    assert "not well-formed XML" in str(error.value)  # read, and refused for what it holds
    assert "at most" not in str(error.value)


def test_export_to_standard_output(ipg):
    out = StringIO()
    call_command("exporttbx", stdout=out)
    assert out.getvalue().startswith('<?xml version="1.0" encoding="UTF-8"?>')
