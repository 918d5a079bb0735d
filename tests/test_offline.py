"""What a browser fetches to keep the IPG offline: the service worker, the web app manifest, the list of pages."""

import json
import re
import shutil

import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.test import Client

from edits import change, delete, write
from ipgsite.ipg.models import Paragraph, Section


def test_the_service_worker_is_served_from_the_root_to_cover_every_language(client, ipg):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "max-age=0" in response["Cache-Control"]  # a new release reaches browsers on their next visit
    assert '"/offline/pages.json"' in response.content.decode()


def test_every_page_links_the_manifest_and_the_offline_script(client, ipg):
    html = client.get("/zh-hans/ipg/2.3/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest?lang=zh-hans">' in html
    assert 'src="/static/offline/offline.js"' in html
    assert (
        'id="offline-status"' in html and 'lang="zh-Hans"' in html.split('id="offline-status"', 1)[1].split(">", 1)[0]
    )


@pytest.mark.parametrize(
    "code,start,name", [("en", "/en/", "IPG · Infraction Procedure Guide"), ("ja", "/ja/", "IPG · 違反処置指針")]
)
def test_the_manifest_opens_the_app_in_the_readers_language(client, ipg, code, start, name):
    response = client.get(f"/manifest.webmanifest?lang={code}")
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["start_url"] == start and manifest["scope"] == "/"
    assert manifest["name"] == name
    assert manifest["display"] == "standalone" and manifest["icons"]


def test_the_page_list_holds_every_section_in_the_language_and_the_compare_choice(client, ipg):
    listing = json.loads(client.get("/offline/pages.json?lang=ja&langs=en,ja").content)
    assert listing["language"] == "ja" and listing["langs"] == "en,ja"
    pages = set(listing["pages"])
    assert {"/ja/", "/ja/penalties/"} <= pages
    for number in Section.objects.values_list("number", flat=True):
        assert f"/ja/ipg/{number}/" in pages and f"/ja/ipg/{number}/?langs=en,ja" in pages


def test_the_page_list_holds_what_a_reader_opens_offline_from_any_page(client, ipg):
    listing = json.loads(client.get("/offline/pages.json?lang=ja&langs=").content)
    pages = set(listing["pages"])
    # the reading language's own pages, the offline page among them
    assert {"/ja/", "/ja/penalties/", "/ja/glossary/", "/ja/quiz/", "/ja/quiz/offline/", "/ja/offline/"} <= pages
    # another interface language: its outline, glossary and offline page
    for code in ("en", "zh-hans"):
        assert {f"/{code}/", f"/{code}/glossary/", f"/{code}/offline/"} <= pages
    for number in Section.objects.values_list("number", flat=True):
        # compared with each other language (⇄ and the compare form), and each other language alone (⇄ in place)
        assert {f"/ja/ipg/{number}/?langs=ja,en", f"/ja/ipg/{number}/?langs=ja,zh-hans"} <= pages
        assert {f"/en/ipg/{number}/", f"/zh-hans/ipg/{number}/"} <= pages
    assert listing["scopes"] == [["ja", ""], ["ja", "ja,en"], ["ja", "ja,zh-hans"], ["en", ""], ["zh-hans", ""]]
    assert len(pages) == len(listing["pages"]), "each page once"
    # Bounded: the sections five times over (the language, two pairs, two other languages) and a few pages more.
    sections = Section.objects.count()
    assert 5 * sections < len(pages) < 5 * sections + 40


def test_the_offline_page_is_in_the_pages_language_and_links_to_its_outline(client, ipg):
    response = client.get("/ja/offline/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="ja">' in html and "オフライン" in html
    assert "このページはオフラインで読めるように保存されていません。" in html
    assert 'class="offline-outline" href="/ja/"' in html
    assert 'href="/static/css/site.css"' in html  # styled as every page (the worker saves the stylesheet)
    assert '<meta name="robots" content="noindex">' in html


def test_the_quiz_offline_asks_every_example_once_with_one_right_choice_each(client, ipg):
    from ipgsite.ipg.models import Part

    html = client.get("/en/quiz/offline/").content.decode()
    examples = Paragraph.objects.filter(part=Part.EXAMPLE)
    questions = html.split('<section class="quiz-question"')[1:]
    assert len(questions) == examples.count()
    assert 'id="chapter-2"' in html
    for question in questions:
        assert question.count('class="quiz-result right"') == 1
        assert question.count('class="quiz-result wrong"') >= 1


def test_the_page_list_changes_version_when_the_content_does(client, ipg):
    before = json.loads(client.get("/offline/pages.json?lang=en").content)["version"]
    paragraph = Paragraph.objects.filter(section__number="2.4").first()
    write(paragraph.section.number, paragraph.key, "en", paragraph.text_en + " (edited)")
    assert json.loads(client.get("/offline/pages.json?lang=en").content)["version"] != before


@pytest.mark.parametrize("query", ["lang=xx&langs=zz,<b>", "lang=&langs=", "langs=ja", "lang=EN&langs=EN"])
def test_odd_parameters_get_a_sensible_list_not_an_error(client, ipg, query):
    response = client.get(f"/offline/pages.json?{query}")
    assert response.status_code == 200
    listing = json.loads(response.content)
    assert listing["language"] in {"en", "zh-hans", "ja"}
    assert listing["langs"] == ""
    assert listing["pages"][0] == f"/{listing['language']}/"
    assert all(url.startswith(("/en/", "/zh-hans/", "/ja/")) for url in listing["pages"])
    assert "X-Cache" not in response and "private" in response["Cache-Control"]  # answered, not kept


@pytest.mark.parametrize(
    "path,made_up",
    [
        ("/offline/pages.json", "lang=x{}"),
        ("/offline/pages.json", "lang=ja&langs=y{}"),
        ("/manifest.webmanifest", "lang=x{}"),
    ],
)
def test_made_up_parameters_add_nothing_to_the_page_cache(client, ipg, path, made_up):
    for number in range(5):
        response = Client().get(f"{path}?{made_up.format(number)}")
        assert response.status_code == 200 and "X-Cache" not in response
    assert Client().get(f"{path}?lang=ja")["X-Cache"] == "miss"
    assert Client().get(f"{path}?lang=ja")["X-Cache"] == "hit"


def test_the_lists_the_worker_asks_for_are_kept(client, ipg):
    for query in ["lang=zh-hans&langs=", "lang=ja&langs=en%2Cja"]:  # as the worker spells them (URLSearchParams)
        assert Client().get(f"/offline/pages.json?{query}")["X-Cache"] == "miss"
        assert Client().get(f"/offline/pages.json?{query}")["X-Cache"] == "hit"
    # The comma spelled as the site writes it, or the parameters in another order: the same page, kept once.
    for query in ["lang=ja&langs=en,ja", "langs=en,ja&lang=ja"]:
        assert Client().get(f"/offline/pages.json?{query}")["X-Cache"] == "hit"


# Every page loads the site's stylesheet, its script and the offline script, and the manifest (which names the icon);
# the outline, the penalties and the finder's steps add their stylesheet, a reading list kept offline the study tools'.
OWN_FILES = {
    "/static/css/site.css",
    "/static/css/pages.css",
    "/static/js/site.js",
    "/static/offline/offline.js",
    "/static/offline/icon.svg",
    "/static/study/study.css",
    "/static/terms/glossary.css",
}
EVERY_PAGE = {"/static/css/site.css", "/static/js/site.js", "/static/offline/offline.js"}


def resources(html):
    """The files a page itself loads: its stylesheets, scripts and manifest (not the links in its text)."""
    found = set(re.findall(r'<link rel="(?:stylesheet|manifest)" href="([^"]+)"', html))
    return found | set(re.findall(r'<script src="([^"]+)"', html))


def test_the_list_holds_the_sites_own_files_and_nothing_from_the_text(client, ipg):
    paragraph = Paragraph.objects.get(section__number="2.4", key="definition-1")
    write(
        paragraph.section.number,
        paragraph.key,
        "en",
        paragraph.text_en + " See [the rules](/static/../admin/) and [this](/static/css/../../admin/login/).",
    )
    assert 'href="/static/../admin/"' in client.get("/en/ipg/2.4/").content.decode()

    listing = json.loads(client.get("/offline/pages.json?lang=en").content)
    manifests = {f"/manifest.webmanifest?lang={code}" for code in ("en", "zh-hans", "ja")}  # pages of each language
    assert set(listing["assets"]) == OWN_FILES | manifests
    for url in listing["assets"]:
        if url.startswith("/static/"):
            assert finders.find(url.removeprefix("/static/")), url
    # every file a saved page loads is listed, so none is missing offline
    for url in listing["pages"]:
        loaded = resources(client.get(url).content.decode())
        assert EVERY_PAGE < loaded <= set(listing["assets"]) and len(loaded) in (4, 5), url


def test_the_list_names_the_deployed_hashed_files(client, ipg, settings, tmp_path):
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
    }
    call_command("collectstatic", interactive=False, verbosity=0)
    listing = json.loads(client.get("/offline/pages.json?lang=ja").content)
    # Sorted by their names without the hash (sorted as they are, site.<hash>.js may come before site.<hash>.css).
    hashed = sorted(
        (url for url in listing["assets"] if url.startswith("/static/")),
        key=lambda url: re.sub(r"\.\w{12}\.", ".", url),
    )
    assert len(hashed) == len(OWN_FILES)
    for url, name in zip(hashed, sorted(OWN_FILES), strict=True):
        stem, extension = name.rsplit(".", 1)
        assert re.fullmatch(re.escape(stem) + r"\.[0-9a-f]{12}\." + extension, url), url
        assert (tmp_path / url.removeprefix("/static/")).is_file()
    loaded = resources(client.get("/ja/ipg/2.3/").content.decode())
    assert len(loaded) == len(EVERY_PAGE) + 1 and loaded <= set(listing["assets"])  # and the manifest


def test_the_page_list_names_the_release_a_saved_copy_holds_and_changes_with_a_new_one(client, ipg):
    from django.utils import timezone

    from ipgsite.releases.publishing import publish

    before = json.loads(client.get("/offline/pages.json?lang=en").content)
    assert before["release"] == "2024-09-23"
    publish(timezone.localdate())
    after = json.loads(client.get("/offline/pages.json?lang=en").content)
    assert after["release"] == timezone.localdate().isoformat()
    assert after["version"] != before["version"], "the worker saves the pages again only when the version changes"


# What the worker keeps follows the list: a page the list stops naming is deleted from the reader's offline copy.


def listed(code="ja", langs="en,ja"):
    response = Client().get(f"/offline/pages.json?lang={code}&langs={langs}")
    return response, json.loads(response.content)


def test_a_deleted_section_leaves_the_page_list_and_the_version_changes(client, ipg):
    _response, before = listed()
    assert {"/ja/ipg/2.4/", "/ja/ipg/2.4/?langs=en,ja"} <= set(before["pages"])
    assert listed()[0]["X-Cache"] == "hit"

    delete(Section.objects.get(number="2.4"))
    response, after = listed()
    assert response["X-Cache"] == "miss", "a list kept from before the deletion would still name the section"
    assert after["version"] != before["version"]
    assert not [url for url in after["pages"] if url.startswith("/ja/ipg/2.4/")]
    removed = set(before["pages"]) - set(after["pages"])
    assert set(after["pages"]) < set(before["pages"])
    # the section's pages, and the finder's step that led only to it
    assert {"/ja/ipg/2.4/", "/ja/ipg/2.4/?langs=en,ja"} < removed
    assert {url for url in removed if not re.match(r"/[a-z-]+/ipg/2\.4/", url)} == {
        "/ja/finder/pre-game/other-error/",
        "/ja/finder/pre-game/other-error/?langs=en,ja",
    }
    for url in removed:  # online, the reader is told they are not there
        assert client.get(url).status_code == 404, url


def test_a_new_section_joins_the_page_list(client, ipg):
    _response, before = listed()
    following = Section.objects.get(number="2.6")
    change(Section(chapter=following.chapter), number="2.7", order=following.order + 1, title_en="TEST section")
    _response, after = listed()
    assert after["version"] != before["version"]
    assert set(after["pages"]) - set(before["pages"]) == {
        "/ja/ipg/2.7/",
        "/ja/ipg/2.7/?langs=ja,en",
        "/ja/ipg/2.7/?langs=ja,zh-hans",
        "/ja/ipg/2.7/?langs=en,ja",
        "/en/ipg/2.7/",
        "/zh-hans/ipg/2.7/",
    }
    # in reading order, after the section it follows
    assert after["pages"].index("/ja/ipg/2.7/") == after["pages"].index("/ja/ipg/2.6/?langs=en,ja") + 1
    assert client.get("/ja/ipg/2.7/").status_code == 200


def test_a_section_the_content_files_no_longer_hold_leaves_the_page_list(client, ipg, settings, tmp_path):
    content = tmp_path / "content"
    shutil.copytree(settings.CONTENT_DIR, content)
    (content / "sections" / "3.4.toml").unlink()
    _response, before = listed("en", "")
    assert "/en/ipg/3.4/" in before["pages"]

    call_command("loadcontent", str(content), verbosity=0)
    _response, after = listed("en", "")
    assert "/en/ipg/3.4/" not in after["pages"] and "/en/ipg/3.3/" in after["pages"]
    assert after["version"] != before["version"]
