"""The interface's own words: one word per idea in each language, as locale/<lang>/STYLE.md lists them; a note's
source, the admin's name, its sidebar and the translators' dashboard in the interface's language."""

import re
import shutil
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.contrib.auth.models import User

from ipgsite.caching.versions import content_changed
from ipgsite.editing.models import Translator
from ipgsite.ipg.models import Note
from pages import parse
from people import client_for, translator

ROOT = Path(settings.BASE_DIR)
LOCALES = ("zh_Hans", "ja")


def forbidden(locale, root=ROOT):
    """The forbidden variants STYLE.md lists for a locale: compiled regular expressions."""
    text = (root / "locale" / locale / "STYLE.md").read_text(encoding="utf-8")
    block = re.search(r"```forbidden\n(.*?)```", text, re.S).group(1)
    return [re.compile(line) for line in block.splitlines() if line.strip()]


def catalogues(locale, root=ROOT):
    return [root / "locale" / locale / "LC_MESSAGES" / "django.po"] + sorted(
        root.glob(f"ipgsite/*/locale/{locale}/LC_MESSAGES/django.po")
    )


def violations(locale, root=ROOT):
    """[(catalogue, msgid, variant)]: each translation in any catalogue of the locale that uses a forbidden variant."""
    found = []
    rules = forbidden(locale, root)
    for path in catalogues(locale, root):
        for entry in polib.pofile(str(path)):
            if entry.obsolete:
                continue
            for text in (entry.msgstr, *entry.msgstr_plural.values()):
                found += [(path.name, entry.msgid, rule.pattern) for rule in rules if rule.search(text)]
    return found


@pytest.mark.parametrize("locale", LOCALES)
def test_every_catalogue_follows_the_style_sheet(locale):
    assert forbidden(locale), "the style sheet lists its forbidden variants"
    assert violations(locale) == []


@pytest.mark.parametrize(
    "locale, planted, near_miss",
    [
        ("zh_Hans", "你的回答:", "您的回答:"),
        ("zh_Hans", "阅读第2.3节", "阅读章节 2.3"),
        ("zh_Hans", "选定的小节", "选定的章节"),
        ("zh_Hans", "尚未翻译;以下为英语原文。", "尚未翻译;以英语显示。"),
        ("zh_Hans", "没有注解", "没有细节"),
        ("zh_Hans", "该文档中没有第 2.3 节。", "文件大于 100 字节。"),
        ("ja", "最近読んだセクション", "最近読んだ節"),
        ("ja", "これは注記だ。", "これは注釈です。"),
    ],
)
def test_a_planted_variant_is_caught_and_its_near_miss_is_not(tmp_path, locale, planted, near_miss):
    copy = tmp_path / "project"
    (copy / "locale" / locale / "LC_MESSAGES").mkdir(parents=True)
    shutil.copy(ROOT / "locale" / locale / "STYLE.md", copy / "locale" / locale / "STYLE.md")
    po = copy / "locale" / locale / "LC_MESSAGES" / "django.po"
    shutil.copy(ROOT / "locale" / locale / "LC_MESSAGES" / "django.po", po)
    original = po.read_text(encoding="utf-8")
    po.write_text(original + f'\nmsgid "A planted string"\nmsgstr "{near_miss}"\n', encoding="utf-8")
    assert violations(locale, copy) == []
    po.write_text(original + f'\nmsgid "A planted string"\nmsgstr "{planted}"\n', encoding="utf-8")
    assert {msgid for _, msgid, _ in violations(locale, copy)} == {"A planted string"}


def test_a_missing_translation_is_said_to_be_shown_in_another_language_not_as_the_original(client, ipg):
    page = parse(client.get("/zh-hans/ipg/2.4/").content.decode())  # 2.4's definition-2 is in English only
    row = page.by_id("definition-2")
    assert "以English显示" in row.text() and "原文" not in row.text()


def test_the_header_names_the_quiz_and_the_glossary_from_the_projects_catalogue():
    for msgid in ("Quiz", "Glossary"):
        for locale in LOCALES:
            entry = polib.pofile(str(ROOT / "locale" / locale / "LC_MESSAGES" / "django.po")).find(msgid)
            assert entry is not None and entry.msgstr, (locale, msgid)


@pytest.mark.parametrize(
    "code, sources",
    [
        ("ja", ["日本語注釈版"]),
        ("zh-hans", ["日文注释版"]),
        ("en", ["Japanese annotated edition"]),
    ],
)
def test_a_notes_source_is_named_in_the_pages_language(client, ipg, code, sources):
    page = parse(client.get(f"/{code}/ipg/2.3/").content.decode())
    shown = {p.text() for p in page.find_all("p", class_="note-source")}
    assert shown and all(any(source in text for source in sources) for text in shown)
    if code != "en":
        assert not any("Japanese annotated edition" in text for text in shown)


def test_a_source_the_catalogues_do_not_know_is_shown_as_stored_marked_english(client, ipg):
    note = Note.objects.filter(paragraph__section__number="2.3").order_by("pk").first()
    Note.objects.filter(pk=note.pk).update(source="A study group's handout")
    content_changed()
    page = parse(client.get("/ja/ipg/2.3/").content.decode())
    sources = [p for p in page.find_all("p", class_="note-source") if "handout" in p.text()]
    assert len(sources) == 1
    assert sources[0].find("span", lang="en").text() == "A study group's handout"


def superuser_in(code):
    user = User.objects.create_superuser("root", "root@example.org", "a-long-test-password")
    Translator.objects.create(user=user, interface_language=code)
    return client_for(user)


@pytest.mark.parametrize(
    "code, header, title",
    [("ja", "IPG リファレンスサイト", "IPG リファレンスサイト管理"), ("zh-hans", "IPG 参考站点", "IPG 参考站点管理")],
)
def test_the_admin_is_named_after_the_site_in_the_interface_language(ipg, code, header, title):
    page = parse(superuser_in(code).get("/admin/").content.decode())
    assert page.find("div", id="site-name").text().strip() == header
    assert title in page.find("title").text()
    assert "Django" not in page.find("header").text()


def test_the_admin_in_english_names_the_site_too(ipg):
    page = parse(superuser_in("en").get("/admin/").content.decode())
    assert page.find("div", id="site-name").text().strip() == "IPG reference site"


@pytest.mark.parametrize("code", ["ja", "zh-hans"])
def test_the_admin_lists_every_app_and_model_in_the_interface_language(ipg, code):
    page = parse(superuser_in(code).get("/admin/").content.decode())
    names = [caption.text().strip() for caption in page.find_all("caption")]
    names += [th.text().strip() for th in page.find_all("th", scope="row")]
    assert len(names) > 10
    english = [name for name in names if re.search(r"[A-Za-z]{3,}", name.replace("IPG", ""))]
    assert english == []


def test_the_admin_in_english_keeps_english_names(ipg):
    page = parse(superuser_in("en").get("/admin/").content.decode())
    rows = {th.text().strip() for th in page.find_all("th", scope="row")}
    assert {"Terms", "Occurrences", "Questions", "Outcomes"} <= rows


@pytest.mark.parametrize(
    "code, translated, fallback",
    [
        ("ja", {"2.1": "ゲーム上の誤り ─ 誘発忘れ", "2.3": "ゲーム上の誤り ─ 非公開カードに関する誤り"}, {}),
        ("zh-hans", {"2.3": "非公开牌张失误"}, {"2.1": "Game Play Error — Missed Trigger"}),
    ],
)
def test_the_dashboard_shows_titles_in_the_interface_language_and_marks_english_in_their_place(
    ipg, code, translated, fallback
):
    user = translator(code)
    Translator.objects.create(user=user, interface_language=code)
    page = parse(client_for(user).get("/admin/translate/").content.decode())
    rows = {
        th.find("span", class_="number").text(): th
        for th in page.find("table", class_="tr-table").find_all("th")
        if th.find("span", class_="number")
    }
    for number, title in translated.items():
        span = rows[number].find("span", lang=code.replace("hans", "Hans"))
        assert span is not None and span.text() == title
        assert rows[number].find("small", class_="fallback-mark") is None
    for number, title in fallback.items():
        span = rows[number].find("span", class_="fallback")
        assert span.attrs["lang"] == "en" and span.text() == title
        assert rows[number].find("small", class_="fallback-mark").text() == "EN"


def test_the_readme_says_what_make_serve_needs_and_how_to_serve_elsewhere():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    setup = readme.split("## Set-up", 1)[1].split("\n## ", 1)[0]
    assert "Python 3.11" in setup
    assert "PORT=8001 make serve" in setup and "HOST=" in setup
    # What the README says is what the Makefile does.
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^PYTHON \?= python3\.11$", makefile, re.M)
    assert re.search(r"^PORT \?= 8000$", makefile, re.M) and re.search(r"^HOST \?= ", makefile, re.M)
    assert "runserver $(HOST):$(PORT)" in makefile
