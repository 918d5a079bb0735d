"""A translated file in the encoding its tool saved it in: every encoding an XML declaration names that Python reads
(Shift_JIS as Japanese tools write it, GB2312 and GB18030, UTF-16 with its byte order mark…) is imported through
the web form and the command alike; UTF-7 and names no one knows are a clear message naming the encoding, never a
500 nor a traceback."""

import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from people import client_for, paragraph, translator
from test_exchange import edit_as_a_cat_tool, export, snapshot, upload

# (the declared name, the codec the tool wrote with, the pair, the unit's new text). Japanese tools that say Shift_JIS
# write Windows' version of it (① is NEC's); a file that says GB2312 often holds GBK (喆 is GBK's only).
ENCODINGS = [
    ("Shift_JIS", "cp932", "ja", "（試験）手札を公開し忘れた①。"),
    ("GB2312", "gb2312", "zh-hans", "（测试）手牌公开了。"),
    ("GB2312", "gbk", "zh-hans", "（测试）喆的手牌。"),
    ("GB18030", "gb18030", "zh-hans", "（测试）𠮷的手牌。"),
    ("EUC-JP", "euc_jp", "ja", "（試験）ライブラリーを確認した。"),
    ("UTF-16", "utf-16", "ja", "（試験）対戦相手に見せた。"),
]


def saved_as(path, declared, codec):
    """The file as a tool saves it in another encoding: declared so, and characters the encoding lacks written as
    character references (as XML writers do)."""
    text = path.read_bytes().decode("utf-8")
    text = re.sub(r"""encoding=["'][^"']+["']""", f'encoding="{declared}"', text, count=1)
    path.write_bytes(text.encode(codec, errors="xmlcharrefreplace"))
    return path


def edited_file(tmp_path, code, text, declared, codec):
    path = export(tmp_path, "exportxliff", "--source", "en", "--target", code, "--section", "2.3")
    edit_as_a_cat_tool(path, {"2.3#example-a": text})
    return saved_as(path, declared, codec)


@pytest.mark.parametrize("declared, codec, code, text", ENCODINGS)
def test_a_file_in_its_tools_encoding_is_imported_on_the_web(ipg, tmp_path, declared, codec, code, text):
    path = edited_file(tmp_path, code, text, declared, codec)
    if codec == "utf-16":
        assert path.read_bytes().startswith(b"\xff\xfe")  # with its byte order mark
    response = upload(client_for(translator(code)), path)
    assert response.status_code == 200, response.content.decode()
    assert "2.3#example-a" in response.content.decode()
    assert paragraph("2.3", "example-a").text_in(code) == text


@pytest.mark.parametrize("declared, codec, code, text", ENCODINGS)
def test_a_file_in_its_tools_encoding_is_imported_by_the_command(ipg, tmp_path, declared, codec, code, text):
    path = edited_file(tmp_path, code, text, declared, codec)
    out = StringIO()
    call_command("importxliff", str(path), "--as", translator(code).username, stdout=out)
    assert "changed 2.3#example-a" in out.getvalue() and "1 changed" in out.getvalue()
    assert paragraph("2.3", "example-a").text_in(code) == text


def test_a_tmx_in_shift_jis_is_imported(ipg, tmp_path):
    person = translator("ja")
    path = export(tmp_path, "exporttmx", "--source", "en", "--target", "ja")
    text = path.read_bytes().decode("utf-8")
    stored = paragraph("2.3", "example-c").text_ja
    path.write_text(text.replace(stored, "（試験）①の訳。"), encoding="utf-8")
    saved_as(path, "Shift_JIS", "cp932")
    out = StringIO()
    call_command("importtmx", str(path), "--as", person.username, stdout=out)
    assert "1 changed" in out.getvalue() and paragraph("2.3", "example-c").text_ja == "（試験）①の訳。"


REFUSED = [
    ("UTF-7", "utf-8", "the encoding “UTF-7”, which the site does not read"),
    ("x-no-such-encoding", "utf-8", "the encoding “x-no-such-encoding”, which the site does not read"),
    ("base64", "utf-8", "the encoding “base64”, which the site does not read"),
    ("unicode_escape", "utf-8", "the encoding “unicode_escape”, which the site does not read"),  # Python's own
    ("undefined", "utf-8", "the encoding “undefined”, which the site does not read"),
    ("Shift_JIS", "utf-8", "declares the encoding “Shift_JIS”, but byte"),  # UTF-8 bytes that are no Shift_JIS
    ("UTF-16", "utf-8", "declares the encoding “UTF-16”, but byte"),  # an odd number of bytes
    ("UTF-32", "utf-8", "declares the encoding “UTF-32”, but"),
    ("cp500", "utf-8", "declares the encoding “cp500”, but it is not written in it"),  # EBCDIC: no ASCII in it
]


@pytest.mark.parametrize("declared, codec, message", REFUSED)
def test_an_encoding_the_site_does_not_read_is_a_clear_message_naming_it(ipg, tmp_path, declared, codec, message):
    person = translator("ja")
    path = edited_file(tmp_path, "ja", "（試験）手札を公開し忘れた…。", declared, codec)
    before = snapshot()
    response = upload(client_for(person), path)
    page = response.content.decode()
    assert response.status_code == 400 and message in page.replace("&#x27;", "'")
    with pytest.raises(CommandError, match="Nothing was imported") as error:
        call_command("importxliff", str(path), "--as", person.username, stdout=StringIO())
    assert message in str(error.value)
    assert snapshot() == before
