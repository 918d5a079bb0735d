"""OmegaT 3.x (Debian's 3.6) reads XLIFF with its old filter, which translates what each `<target>` holds and skips a
unit whose target is empty: the export "for OmegaT 3" fills an untranslated target with its source, still marked
needs-translation, and the import leaves a target equal to its source alone. The round trip through OmegaT's own
console mode runs where OmegaT is installed (`make cat-deps`)."""

import os
import shutil
import subprocess
from io import StringIO

import pytest
from django.core.management import call_command
from lxml import etree

from ipgsite.editing.models import Change, State, Status
from people import client_for, paragraph, translator
from test_exchange import export, import_file, snapshot, target_state, units_by_id, xliff_schema

OMEGAT = shutil.which("omegat")
NEEDS_OMEGAT = pytest.mark.skipif(
    OMEGAT is None, reason="OmegaT is not installed: `make cat-deps` installs Debian's omegat package"
)
MISSING_KEY = ("2.4", "definition-2")  # English only in content/: missing in Japanese
TRANSLATION = "（試験）利益をもたらさない些細な手順の誤りは、違反ではない。"


def missing_units(units):
    missing = Status.objects.of_paragraphs().filter(language="ja", state=State.MISSING)
    ids = {f"{s.paragraph.section.number}#{s.paragraph.key}" for s in missing.select_related("paragraph__section")}
    return {id: unit for id, unit in units.items() if id in ids}


def test_the_export_for_omegat_fills_untranslated_targets_with_their_source(ipg, tmp_path):
    path = export(tmp_path, "exportxliff", "--source", "en", "--target", "ja", "--fill-targets")
    assert xliff_schema().validate(etree.parse(str(path)))
    _store, units = units_by_id(path)
    missing = missing_units(units)
    assert "2.4#definition-2" in missing
    for unit in missing.values():
        assert unit.target == unit.source and target_state(unit) == "needs-translation"
    translated = units["2.3#example-c"]
    assert translated.target == paragraph("2.3", "example-c").text_ja and target_state(translated) == "translated"
    # The default export leaves them empty, as XLIFF tools that read <source> expect.
    _store, plain = units_by_id(export(tmp_path, "exportxliff", "--source", "en", "--target", "ja"))
    assert all(not plain[id].target for id in missing)


def test_an_untouched_filled_file_imports_as_no_change(ipg, tmp_path):
    path = export(tmp_path, "exportxliff", "--source", "en", "--target", "ja", "--fill-targets")
    before, changes = snapshot(), Change.objects.count()
    assert "0 changed" in import_file(path, translator("ja").username)
    assert snapshot() == before and Change.objects.count() == changes
    assert not paragraph(*MISSING_KEY).text_ja


def test_the_dashboard_offers_the_export_for_omegat(ipg):
    client = client_for(translator("ja"))
    assert "/admin/translate/exchange/en/ja/xliff-filled/" in client.get("/admin/translate/").content.decode()
    response = client.get("/admin/translate/exchange/en/ja/xliff-filled/")
    assert response.status_code == 200 and 'filename="ipg-en-ja.filled.xlf"' in response["Content-Disposition"]
    english = paragraph(*MISSING_KEY).text_en
    assert f'<target state="needs-translation">{english}</target>' in response.content.decode()


def omegat_translate(tmp_path, exported, memory):
    """Run OmegaT's console mode on a project holding `exported` in source/ and `memory` (a TMX) in tm/auto/, whose
    exact matches OmegaT inserts: the translated file it writes in target/."""
    project = tmp_path / "omegat-project"
    for folder in ("source", "target", "tm/auto", "glossary", "dictionary", "omegat"):
        (project / folder).mkdir(parents=True, exist_ok=True)
    shutil.copy(exported, project / "source" / "ipg-en-ja.xlf")
    (project / "tm" / "auto" / "memory.tmx").write_bytes(memory)
    dirs = "".join(
        f"<{name}>__DEFAULT__</{name}>"
        for name in ("source_dir", "target_dir", "tm_dir", "glossary_dir", "glossary_file", "dictionary_dir")
    )
    (project / "omegat.project").write_text(
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<omegat><project version="1.0">'
        f"{dirs}<source_lang>EN</source_lang><target_lang>JA</target_lang><sentence_seg>false</sentence_seg>"
        "<support_default_translations>true</support_default_translations><remove_tags>false</remove_tags>"
        "</project></omegat>\n",
        encoding="utf-8",
    )
    home = tmp_path / "home"  # OmegaT keeps its settings there
    home.mkdir(exist_ok=True)
    result = subprocess.run(
        [OMEGAT, str(project), "--mode=console-translate"],
        env={**os.environ, "HOME": str(home)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    translated = project / "target" / "ipg-en-ja.xlf"
    assert translated.exists(), result.stdout[-2000:]
    return translated


def memory_for(english, japanese):
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4"><header creationtool="test" '
        'creationtoolversion="1" datatype="plaintext" segtype="paragraph" adminlang="en" srclang="EN" o-tmf="test"/>'
        f'<body><tu><tuv xml:lang="EN"><seg>{english}</seg></tuv><tuv xml:lang="JA"><seg>{japanese}</seg></tuv>'
        "</tu></body></tmx>\n"
    ).encode()


@NEEDS_OMEGAT
def test_omegat_translates_the_export_for_it_and_the_import_takes_the_translation(ipg, tmp_path):
    memory = memory_for(paragraph(*MISSING_KEY).text_en, TRANSLATION)
    filled = export(tmp_path, "exportxliff", "--source", "en", "--target", "ja", "--fill-targets")
    translated = omegat_translate(tmp_path, filled, memory)
    _store, units = units_by_id(translated)
    assert units["2.4#definition-2"].target == TRANSLATION
    out = StringIO()
    call_command("importxliff", str(translated), "--as", translator("ja").username, stdout=out)
    assert "changed 2.4#definition-2 [ja]" in out.getvalue() and "1 changed" in out.getvalue()
    assert paragraph(*MISSING_KEY).text_ja == TRANSLATION
    # Every other unit OmegaT left as it found it: their targets are their sources or their translations.
    assert Change.objects.filter(user__username="translator-ja").count() == 1


@NEEDS_OMEGAT
def test_omegat_translates_nothing_in_the_default_export(ipg, tmp_path):
    """Why the option exists: with empty targets OmegaT 3.x sees no text to translate."""
    memory = memory_for(paragraph(*MISSING_KEY).text_en, TRANSLATION)
    plain = export(tmp_path, "exportxliff", "--source", "en", "--target", "ja")
    translated = omegat_translate(tmp_path, plain, memory)
    assert "0 changed" in import_file(translated, translator("ja").username)
    assert not paragraph(*MISSING_KEY).text_ja
