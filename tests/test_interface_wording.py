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
        ("zh_Hans", "尚未翻译;以下为英文原文。", "尚未翻译;以英文显示。"),
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
    assert "以英文显示" in row.text() and "原文" not in row.text()


TEMPLATES = sorted((ROOT / "templates").rglob("*.html")) + sorted(ROOT.glob("ipgsite/*/templates/**/*.html"))
CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def template_violations(locale, root=ROOT, templates=TEMPLATES):
    """[(template, variant)]: Chinese or Japanese a template writes itself that the style sheet forbids (its rules
    that are about Chinese or Japanese words: a template's English is English)."""
    rules = [rule for rule in forbidden(locale, root) if CJK.search(rule.pattern)]
    found = []
    for path in templates:
        text = OWN_LANG.sub(r"\1", path.read_text())
        found += [(path.name, rule.pattern) for rule in rules if rule.search(text)]
    return found


# An element that says which language it is in (a language's own name in the language menu) is not the page's.
OWN_LANG = re.compile(r'(<[^>]*\blang="[a-zA-Z-]+"[^>]*>)[^<]*')


@pytest.mark.parametrize("locale", LOCALES)
def test_no_template_writes_a_forbidden_variant(locale):
    assert TEMPLATES and template_violations(locale) == []


def test_a_forbidden_variant_written_in_a_template_is_caught(tmp_path):
    planted = tmp_path / "planted.html"
    planted.write_text("<p>{% translate 'x' %} 以英文显示</p>")
    assert template_violations("zh_Hans", templates=[planted]) == []
    planted.write_text('<option lang="ja">日本語</option>')
    assert template_violations("zh_Hans", templates=[planted]) == []
    planted.write_text("<p>注释,非正式文本</p>")
    assert template_violations("zh_Hans", templates=[planted]) == [("planted.html", "正式文本")]


@pytest.mark.parametrize(
    "locale, planted, near_miss",
    [
        ("zh_Hans", "尚未翻译为%(language)s;以English显示。", "尚未翻译为%(language)s;以英文显示。"),
        ("zh_Hans", "注释,非正式文本", "注释,并非官方文本"),
        ("zh_Hans", "%(number)s 的示例%(letter)s", "%(number)s 的范例%(letter)s"),
        ("zh_Hans", "尚未译为%(language)s。", "尚未翻译为%(language)s。"),
        ("zh_Hans", "所提及的万智牌比赛规则章节", "所提及的万智牌赛事规则章节"),
        ("zh_Hans", "本注释的中文原文", "本注释的简体中文原文"),
        ("ja", "%(counter)s節を変更", "%(counter)s件の節を変更"),
        ("ja", "改訂を購読する", "新しい版を購読する"),
        ("ja", "简体中文には未翻訳です。", "簡体字中国語には未翻訳です。"),
        ("ja", "この段落のEnglish", "この段落の英語"),
        ("ja", "マジック・トーナメントルールの節", "マジック・イベント規定の節"),
        ("ja", "貼り付けたタイトル", "貼り付けた題名"),
    ],
)
def test_a_second_word_for_one_thing_is_caught_and_the_style_sheets_word_is_not(tmp_path, locale, planted, near_miss):
    """W1-W6: one word for each thing; a language named in the sentence's own language."""
    test_a_planted_variant_is_caught_and_its_near_miss_is_not(tmp_path, locale, planted, near_miss)


def own_texts(node, lang=""):
    """(lang, text) of each run of text in the page, with the `lang` it is in (the nearest one above it)."""
    lang = node.attrs.get("lang", lang)
    for child in node.children:
        if isinstance(child, str):
            if child.strip():
                yield lang, child
        elif child.tag not in ("script", "style"):
            yield from own_texts(child, lang)
    for name in ("aria-label", "title", "placeholder", "alt"):
        if node.attrs.get(name):
            yield lang, node.attrs[name]


# A language named in another language's words, inside a Chinese or Japanese text: English, or the other language's
# own name for itself.
FOREIGN_NAMES = {
    "zh-Hans": re.compile(r"English|Japanese|Chinese|日本語|英語|簡体字"),
    "ja": re.compile(r"English|Japanese|Chinese|简体中文|英文|日文"),
}
PAGES = [
    "/{code}/ipg/2.1/",
    "/{code}/ipg/2.3/?langs={code},en",
    "/{code}/ipg/2.4/",
    "/{code}/ipg/2.4/definition-2/",
    "/{code}/list/?p=2.3:upgrade-1&p=2.4:remedy-1",
    "/{code}/finder/",
    "/{code}/finder/pre-game/trivial/",
    "/{code}/glossary/",
    "/{code}/changes/2024-09-23/",
]


@pytest.mark.parametrize("code", ["zh-hans", "ja"])
def test_no_chinese_or_japanese_text_names_a_language_in_english_or_another_languages_words(client, ipg, code):
    """W2: "以English显示", aria "本段的English", "Englishで表示しています", "この段落のEnglish"; and on a Japanese page
    "简体中文には未翻訳です" (簡体字中国語, as the glossary says). A language's own name stands only where its `lang`
    says so (the language menu, a column's head)."""
    lang = {"zh-hans": "zh-Hans", "ja": "ja"}[code]
    found = []
    for url in (u.format(code=code) for u in PAGES):
        response = client.get(url)
        assert response.status_code == 200, url
        found += [
            (url, text)
            for where, text in own_texts(parse(response.content.decode()))
            if where == lang and FOREIGN_NAMES[lang].search(text)
        ]
    assert found == []


@pytest.mark.parametrize("code, words", [("zh-hans", "以英文版为准"), ("ja", "英語版が優先されます")])
def test_chinese_and_japanese_pages_say_once_that_the_english_version_governs(client, ipg, code, words):
    for url in (f"/{code}/ipg/2.3/", f"/{code}/finder/", f"/{code}/glossary/", f"/{code}/changes/"):
        page = parse(client.get(url).content.decode())
        notices = page.find_all("p", class_="english-governs")
        assert len(notices) == 1 and words in notices[0].text(), url
    assert parse(client.get("/en/ipg/2.3/").content.decode()).find_all("p", class_="english-governs") == []


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
