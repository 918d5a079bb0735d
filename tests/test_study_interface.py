"""The study tools' interface in Simplified Chinese and Japanese: every string of their catalogues translated."""

import re
from pathlib import Path

import pytest

from pages import parse

pytestmark = pytest.mark.django_db
CATALOGUES = Path(__file__).resolve().parent.parent / "ipgsite" / "study" / "locale"


def entries(po):
    """(msgid, [msgstr…]) of each entry but the header."""
    found = []
    for block in po.split("\n\n"):
        ids = re.search(r'^msgid ((?:".*"\n)+)', block + "\n", re.M)
        if not ids:
            continue
        msgid = "".join(re.findall(r'"(.*)"', ids.group(1)))
        strs = [
            "".join(re.findall(r'"(.*)"', m)) for m in re.findall(r'^msgstr(?:\[\d\])? ((?:".*"\n?)+)', block, re.M)
        ]
        if msgid:
            found.append((msgid, strs, "#, fuzzy" in block))
    return found


@pytest.mark.parametrize("language", ["zh_Hans", "ja"])
def test_every_string_of_the_study_tools_is_translated(language):
    found = entries((CATALOGUES / language / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8"))
    assert len(found) > 50
    for msgid, strs, fuzzy in found:
        assert strs and all(strs), msgid
        assert not fuzzy, msgid
        assert set(re.findall(r"%\(\w+\)s|\{\w+\}", msgid)) == set(re.findall(r"%\(\w+\)s|\{\w+\}", strs[0])), msgid


@pytest.mark.parametrize(
    ("url", "lang", "expected"),
    [
        ("/ja/quiz/?seed=1", "ja", "これはどの違反でしょう？"),
        ("/zh-hans/quiz/?seed=1", "zh-Hans", "这是哪一种违规？"),
        ("/ja/list/?p=2.3:example-z", "ja", "2.3節には段落「example-z」がありません。"),
        ("/zh-hans/list/", "zh-Hans", "本清单为空"),
        ("/ja/ipg/2.3/example-c/", "ja", "この節の通常のページを読む"),
        ("/zh-hans/ipg/2.3/", "zh-Hans", "加入阅读清单"),
    ],
)
def test_pages_speak_the_readers_language(client, ipg, url, lang, expected):
    response = client.get(url)
    assert response.status_code == 200
    assert expected in parse(response.content).text()


def test_a_missing_translation_is_said_in_the_page_language(client, ipg):
    html = parse(client.get("/zh-hans/ipg/2.4/definition-2/").content)
    description = html.find("meta", property="og:description").attrs["content"]
    assert description == "尚未翻译为简体中文。"


@pytest.mark.parametrize(("lang", "label"), [("en", "Quiz"), ("zh-hans", "测验"), ("ja", "クイズ")])
def test_every_page_header_leads_to_the_quiz(client, ipg, lang, label):
    link = parse(client.get(f"/{lang}/").content).find("a", class_="quiz-link")
    assert (link.attrs["href"], link.text()) == (f"/{lang}/quiz/", label)
