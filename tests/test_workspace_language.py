"""The translators' workspace in the translator's language: every interface string in Chinese or Japanese, and a
preferred interface language on the account that overrides the browser's."""

import re
from html.parser import HTMLParser
from pathlib import Path

import django
import polib
import pytest
from django.conf import settings

from edits import write
from ipgsite.editing.models import Change, Translator
from ipgsite.ipg.models import NOTE_SOURCES, Note
from people import client_for, paragraph, translator

ROOT = Path(settings.BASE_DIR)
SKIPPED = {"script", "style", "svg", "template", "textarea"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
ATTRIBUTES = ("aria-label", "title", "placeholder")  # not alt: Django's admin search icon has alt="Search" in English


LOCALES = ("ja", "zh_Hans")


def catalogues(locale):
    """Every catalogue the site's interface is translated with: the project's, each app's, and Django admin's."""
    ours = [ROOT / "locale" / locale / "LC_MESSAGES" / "django.po"]
    ours += sorted(ROOT.glob(f"ipgsite/*/locale/{locale}/LC_MESSAGES/django.po"))
    admin = Path(django.__file__).parent / "contrib" / "admin" / "locale" / locale / "LC_MESSAGES" / "django.po"
    return [polib.pofile(str(path)) for path in [*ours, admin] if path.exists()]


def english_strings(locale):
    """The English interface strings (every msgid of every catalogue, in any language, and Django admin's English
    ones) that `locale` does not translate as themselves ("IPG" stays "IPG"): none of them may be left on a page."""
    msgids, kept = set(), set()
    for code in ("en", *LOCALES):
        for po in catalogues(code):
            for entry in po:
                if entry.obsolete or entry.msgctxt == "language":
                    # a language's name: the admin's language tabs show each language by its own name ("English")
                    continue
                for msgid in (entry.msgid, entry.msgid_plural):
                    if msgid and re.search("[A-Za-z]{2}", msgid):
                        msgids.add(msgid)
                if code == locale and entry.translated() and entry.msgstr == entry.msgid:
                    kept.add(entry.msgid)
    # A note's source is content: the admin shows it as content/ stores it (in English), the pages in their language.
    return msgids - kept - set(NOTE_SOURCES)


class Interface(HTMLParser):
    """The text a reader sees, and the labels assistive technology reads, outside any block marked as English
    content (lang="en"): the IPG's text, titles and diffs shown for reference."""

    def __init__(self):
        super().__init__()
        self.stack, self.texts = [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        english = attrs.get("lang") == "en" and tag != "html"
        hidden = tag in SKIPPED or (self.stack and self.stack[-1][1])
        if not (hidden or english or any(e for _t, _h, e in self.stack)):
            self.texts += [attrs[name].strip() for name in ATTRIBUTES if attrs.get(name)]
            if tag in ("input", "button") and attrs.get("type") in ("submit", "button") and attrs.get("value"):
                self.texts.append(attrs["value"].strip())
        if tag not in VOID:
            self.stack.append((tag, bool(hidden), english))

    def handle_endtag(self, tag):
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data):
        if self.stack and (self.stack[-1][1] or any(e for _t, _h, e in self.stack)):
            return
        if data.strip():
            self.texts.append(" ".join(data.split()))


def interface_texts(html):
    parser = Interface()
    parser.feed(html)
    return parser.texts


def pattern(msgid):
    """A msgid as a regular expression: its placeholders match anything."""
    parts = re.split(r"%\(\w+\)[sd]|%[sd]|\{\{ ?\w+ ?\}\}", msgid.replace("%%", "%"))
    return re.compile("^" + ".+".join(re.escape(" ".join(part.split())) for part in parts) + "$")


def english_left(html, locale):
    """The interface strings on the page that are still the English of a translated msgid."""
    strings = english_strings(locale)
    exact = {" ".join(s.split()) for s in strings if "%" not in s}
    patterns = [pattern(s) for s in strings if "%" in s]
    left = []
    for text in interface_texts(html):
        if text in exact or any(p.match(text) for p in patterns):
            left.append(text)
    return left


def workspace_urls():
    note = Note.objects.filter(paragraph__section__number="2.3").order_by("pk").first()
    status_change = "/admin/translations/status/"
    return [
        "/admin/",
        "/admin/translate/",
        "/admin/translate/2.4/{code}/",
        "/admin/translate/2.3/{code}/",
        "/admin/translate/2.3/{code}/?status=outdated",
        "/admin/translate/2.3/history/example-c/",
        "/admin/translate/2.4/import/",
        "/admin/translate/language/",
        "/admin/ipg/paragraph/",
        f"/admin/ipg/paragraph/{paragraph('2.4', 'definition-1').pk}/change/",
        f"/admin/ipg/note/{note.pk}/change/",
        status_change,
        "/admin/translations/change/",
    ]


@pytest.mark.parametrize("code,home,save_all", [("ja", "ホーム", "すべて保存"), ("zh-hans", "首页", "全部保存")])
def test_the_workspace_pages_are_in_the_translators_language_with_no_english_interface_string_left(
    ipg, code, home, save_all
):
    user = translator(code)
    Translator.objects.create(user=user, interface_language=code)
    client = client_for(user)
    write("2.4", "example-a", "en", paragraph("2.3", "example-c").text_in("en"))  # a memory suggestion, exact
    write("2.3", "example-c", code, paragraph("2.3", "example-c").text_in(code) + "。")  # history has an entry
    assert Change.objects.filter(paragraph=paragraph("2.3", "example-c")).exists()
    for url in workspace_urls():
        response = client.get(url.format(code=code), HTTP_ACCEPT_LANGUAGE="en")
        assert response.status_code == 200, url
        html = response.content.decode()
        assert f'<html lang="{code}"' in html, url
        assert english_left(html, code.replace("zh-hans", "zh_Hans")) == [], url
    translate = client.get(f"/admin/translate/2.4/{code}/").content.decode()
    assert save_all in translate and home in translate
    index = client.get("/admin/").content.decode()
    assert "Paragraphs" not in index and "Statuses" not in index
    # The import page's proposal, with its table headings and kinds of change.
    raw = paragraph("2.4", "definition-1").text_in("en") + "\n" + "訳文の一行目。"
    proposal = client.post("/admin/translate/2.4/import/", {"raw": raw, "cjk": "ja", "propose": "1"})
    assert proposal.status_code == 200 and proposal.context["alignment"]
    assert english_left(proposal.content.decode(), code.replace("zh-hans", "zh_Hans")) == []


def test_the_check_finds_english_left_on_a_page():
    html = '<html lang="ja"><p>Save all</p><p lang="en">Save all</p><button aria-label="Translation tools">x</button>'
    html += "<a>Next in 日本語: 2.4 #definition-1</a></html>"
    assert english_left(html, "ja") == ["Save all", "Translation tools", "Next in 日本語: 2.4 #definition-1"]


def test_the_preferred_interface_language_overrides_accept_language_and_the_cookie(ipg):
    user = translator("ja")
    client = client_for(user)
    english = client.get("/admin/translate/", HTTP_ACCEPT_LANGUAGE="en")
    assert '<html lang="en"' in english.content.decode() and "Translations" in english.content.decode()
    assert '<html lang="ja"' in client.get("/admin/translate/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()

    response = client.post("/admin/translate/language/", {"interface_language": "zh-hans"})
    assert response.status_code == 302
    assert Translator.objects.get(user=user).interface_language == "zh-hans"
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    for accept in ("ja", "en", "ja,en;q=0.5"):
        page = client.get("/admin/translate/2.4/ja/", HTTP_ACCEPT_LANGUAGE=accept)
        assert '<html lang="zh-hans"' in page.content.decode()
        assert "将 2.4 翻译为日文" in page.content.decode()  # the language as Chinese calls it
        assert page["Content-Language"] == "zh-hans"
    # Back to the browser's language.
    assert client.post("/admin/translate/language/", {"interface_language": ""}).status_code == 302
    del client.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert '<html lang="ja"' in client.get("/admin/translate/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()


def test_the_preference_is_the_translators_own_and_public_pages_follow_the_url(ipg):
    user, other = translator("ja"), translator("zh-hans")
    Translator.objects.create(user=other, interface_language="en")
    client = client_for(user)
    response = client.post("/admin/translate/language/", {"interface_language": "ja", "user": other.pk})
    assert response.status_code == 302
    assert Translator.objects.get(user=other).interface_language == "en"  # the posted user is ignored
    assert Translator.objects.get(user=user).interface_language == "ja"
    # The public pages keep the language of their URL.
    assert '<html lang="en"' in client.get("/en/ipg/2.4/").content.decode()


def test_an_unknown_interface_language_is_refused_with_a_message(ipg):
    client = client_for(translator("ja"))
    response = client.post("/admin/translate/language/", {"interface_language": "xx"})
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()


def test_the_language_page_is_for_translators_only(ipg, client):
    assert client.get("/admin/translate/language/").status_code == 302  # to the login page
