"""Public pages come from the page cache, carry validators, answer 304, and change as soon as the content does."""

import gzip
import re
import shutil
from html import unescape

import brotli
import pytest
from django.contrib.auth import get_user_model
from django.core.checks import run_checks
from django.core.management import call_command
from django.db import connection
from django.test import Client, RequestFactory, modify_settings
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from edits import delete, write
from ipgsite.caching.middleware import PageCacheMiddleware
from ipgsite.ipg.models import Paragraph
from pages import parse

COMPARE = "/en/ipg/2.3/?langs=en,zh-hans,ja"
PUBLIC_PAGES = ["/en/", "/ja/ipg/2.3/", COMPARE, "/zh-hans/penalties/", "/api/ipg/2.3/", "/zh-hans/glossary/"]


def shown(html):
    """A page's text without its tags: a term marked in a paragraph (an `<a>` inside it) does not split it."""
    return " ".join(unescape(re.sub(r"<[^>]+>", "", html)).split())


def reader():
    """A reader arriving with no cookies (the compare page remembers its choice in one)."""
    return Client()


def kept(url, code="en"):
    """The page the shared cache holds for a reader with no cookies asking for `url`, if any."""
    from django.core.cache import cache

    with translation.override(code):
        _page_type, key = PageCacheMiddleware(lambda request: None).page_of(RequestFactory().get(url))
    return cache.get(key) if key else None


def example_c():
    return Paragraph.objects.get(section__number="2.3", key="example-c")


@pytest.mark.parametrize("url", PUBLIC_PAGES)
def test_public_pages_carry_validators_and_cache_control(client, ipg, url):
    response = client.get(url)
    assert response.status_code == 200
    assert response["ETag"].startswith('W/"')
    assert response["Last-Modified"].endswith(" GMT")
    # Browsers ask each time whether it changed (shared caches may keep it a while: tests/test_edge.py).
    assert "max-age=0" in response["Cache-Control"] and "public" in response["Cache-Control"]
    assert "Accept-Encoding" in response["Vary"]


def test_an_unchanged_page_answers_a_conditional_request_with_304(client, ipg):
    first = client.get("/ja/ipg/2.3/")
    by_etag = client.get("/ja/ipg/2.3/", HTTP_IF_NONE_MATCH=first["ETag"])
    by_date = client.get("/ja/ipg/2.3/", HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert by_etag.status_code == by_date.status_code == 304
    assert by_etag.content == b""
    assert by_etag["ETag"] == first["ETag"]


def test_the_second_reader_gets_the_page_from_the_cache(client, ipg):
    first = client.get("/en/ipg/2.3/")
    second = client.get("/en/ipg/2.3/")
    assert (first["X-Cache"], second["X-Cache"]) == ("miss", "hit")
    assert second.content == first.content
    assert second["ETag"] == first["ETag"]
    # kept with the headers the skipped middleware set
    assert second["Content-Security-Policy"] == first["Content-Security-Policy"]
    assert second["X-Frame-Options"] == "DENY"


def test_an_edit_shows_at_once_and_changes_the_etag(client, ipg):
    before = reader().get(COMPARE)
    assert reader().get(COMPARE)["X-Cache"] == "hit"

    write("2.3", "example-c", "zh-hans", "牌手结算了黑暗亲信的触发(缓存测试)。")

    after = reader().get(COMPARE, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200
    assert after["X-Cache"] == "miss"
    assert "牌手结算了黑暗亲信的触发(缓存测试)。" in shown(after.content.decode())
    assert after["ETag"] != before["ETag"]


def test_deleting_content_invalidates_the_outline(client, ipg):
    assert "2.4" in client.get("/en/").content.decode()
    for paragraph in Paragraph.objects.filter(section__number="2.4"):
        delete(paragraph)
    html = client.get("/en/").content.decode()
    stub = html.split('href="/en/ipg/2.4/"', 1)[1].split("</li>", 1)[0]
    assert "no text yet" in stub


def test_loading_content_files_invalidates_the_pages(client, ipg, settings, tmp_path):
    assert "Hidden Card Error" in client.get("/en/").content.decode()
    content = tmp_path / "content"
    shutil.copytree(settings.CONTENT_DIR, content)
    section = content / "sections" / "2.3.toml"
    section.write_text(section.read_text().replace('Hidden Card Error"', 'Hidden Card Error (reloaded)"', 1))
    call_command("loadcontent", str(content), verbosity=0)
    assert "Hidden Card Error (reloaded)" in client.get("/en/").content.decode()


def test_each_language_and_compare_choice_is_kept_apart(client, ipg):
    paragraph = example_c()
    pages = {  # the text a reader sees (a marked term is a link within it)
        url: shown(reader().get(url).content.decode())
        for url in ["/en/ipg/2.3/", "/ja/ipg/2.3/", "/en/ipg/2.3/?langs=en,ja"]
    }
    for url in pages:
        assert reader().get(url)["X-Cache"] == "hit"
    assert paragraph.text_en[:40] in pages["/en/ipg/2.3/"] and paragraph.text_ja[:30] not in pages["/en/ipg/2.3/"]
    assert paragraph.text_ja[:30] in pages["/ja/ipg/2.3/"] and paragraph.text_en[:40] not in pages["/ja/ipg/2.3/"]
    assert (
        paragraph.text_en[:40] in pages["/en/ipg/2.3/?langs=en,ja"]
        and paragraph.text_ja[:30] in pages["/en/ipg/2.3/?langs=en,ja"]
    )


def test_a_cached_compare_page_is_everyones_and_the_choice_is_remembered_by_the_form(client, ipg):
    """The compare page sets no cookie, so every reader shares one copy; the form remembers the choice on the
    redirect that folds its fields into that page's URL (a small answer of its own, never kept)."""
    client.get(COMPARE)
    newcomer = reader()
    response = newcomer.get(COMPARE)
    assert response["X-Cache"] == "hit"
    assert not response.cookies and "public" in response["Cache-Control"] and "Cookie" not in response["Vary"]
    chosen = newcomer.get("/en/ipg/2.3/", {"langs": ["en", "zh-hans", "ja"]})  # the form's three columns
    assert (chosen.status_code, chosen["Location"]) == (302, COMPARE)
    assert chosen.cookies["ipg_langs"].value == "en,zh-hans,ja" and "private" in chosen["Cache-Control"]
    assert "X-Cache" not in chosen and kept("/en/ipg/2.3/?langs=en&langs=zh-hans&langs=ja") is None
    # and the remembered choice still takes the reader from the plain page, cached too, to the compared one
    assert reader().get("/en/ipg/2.4/").status_code == 200
    redirected = newcomer.get("/en/ipg/2.4/")
    assert redirected.status_code == 302
    assert redirected["Location"] == "/en/ipg/2.4/?langs=en,zh-hans,ja"


def columns(response, row_id="example-c"):
    """The `lang` of each language shown for one paragraph."""
    return [t.attrs["lang"] for t in parse(response.content).by_id(row_id).find_all(class_="text")]


def test_a_shared_paragraphs_languages_are_kept_apart(client, ipg):
    """The paragraph's own page is kept once per `?langs=`: a link's choice is never served for another."""
    plain, compared, reversed_ = (
        "/ja/ipg/2.3/example-c/",
        "/ja/ipg/2.3/example-c/?langs=en,ja",
        "/ja/ipg/2.3/example-c/?langs=ja,en",
    )
    expected = {plain: ["ja"], compared: ["en", "ja"], reversed_: ["ja", "en"]}
    for attempt in ("miss", "hit"):
        for url, langs in expected.items():
            response = reader().get(url)
            assert (response["X-Cache"], columns(response)) == (attempt, langs), url
    assert all(kept(url, "ja") is not None for url in expected)
    # The reader's own remembered choice does not change what a shared link shows.
    remembering = reader()
    remembering.cookies["ipg_langs"] = "en,zh-hans"
    assert columns(remembering.get(plain)) == ["ja"]
    assert columns(remembering.get(compared)) == ["en", "ja"]
    # Another spelling of a choice is a redirect to the site's spelling, and not kept.
    odd = "/ja/ipg/2.3/example-c/?langs=EN,ja"
    response = reader().get(odd)
    assert (response.status_code, response["Location"]) == (302, compared)
    assert "X-Cache" not in response and kept(odd, "ja") is None


def test_a_reading_list_is_kept_per_remembered_choice_so_no_reader_gets_anothers_languages(client, ipg):
    url = "/en/list/?p=2.3:example-c&p=2.4:definition-1"
    remembering = reader()
    remembering.cookies["ipg_langs"] = "en,ja"
    for turn in range(2):  # whoever comes first, each reader gets their own answer
        redirected = remembering.get(url)
        assert (redirected.status_code, redirected["Location"]) == (302, url + "&langs=en,ja")
        assert "X-Cache" not in redirected and "Cookie" in redirected["Vary"]
        plain = reader().get(url)
        assert plain.status_code == 200 and columns(plain, "ref-2-3-example-c") == ["en"]
        # The list itself depends on no cookie: the redirect above is the cookie's answer, of its own.
        assert plain["X-Cache"] == ("miss", "hit")[turn] and "Cookie" not in plain["Vary"]
        compared = remembering.get(url + "&langs=en,ja")
        assert columns(compared, "ref-2-3-example-c") == ["en", "ja"]
        assert compared["X-Cache"] == ("miss", "hit")[turn]
    assert kept(url) is not None


def test_a_reading_list_is_made_again_when_its_text_changes(client, ipg):
    url = "/en/list/?p=2.3:example-c"
    assert reader().get(url)["X-Cache"] == "miss"
    assert reader().get(url)["X-Cache"] == "hit"
    write("2.3", "example-c", "en", "A player draws four cards.")
    edited = reader().get(url)
    assert edited["X-Cache"] == "miss" and "A player draws four cards." in edited.content.decode()


@pytest.mark.parametrize(
    "query",
    [
        "p=2.3:example-c&",  # the same list spelled otherwise
        "p=2.3:example-c&x=1",  # a parameter the list does not read
        "langs=en,ja&p=2.3:example-c",  # its parameters in another order
        "p=2.3%3Aexample-c&fbclid=IwAR0xyz",  # encoded otherwise, and shared with a tracking parameter
    ],
)
def test_a_reading_list_spelled_otherwise_is_the_same_kept_page(client, ipg, query):
    site_spelling = "/en/list/?p=2.3:example-c" + ("&langs=en,ja" if "langs" in query else "")
    first = reader().get(site_spelling)
    assert first["X-Cache"] == "miss"
    response = reader().get(f"/en/list/?{query}")
    assert (response.status_code, response["X-Cache"]) == (200, "hit") and response.content == first.content


def test_a_reading_list_with_langs_twice_is_the_compare_forms_redirect_and_not_kept(client, ipg):
    url = "/en/list/?p=2.3:example-c&langs=en,ja&langs=en,ja"
    for _ in range(2):
        response = reader().get(url)
        assert response.status_code == 302 and "X-Cache" not in response
    assert kept(url) is None


def test_signed_in_readers_get_their_own_page(client, ipg):
    client.get("/en/ipg/2.3/")
    user = get_user_model().objects.create_user("reader", password="a long passphrase")
    client.force_login(user)
    response = client.get("/en/ipg/2.3/")
    assert response.status_code == 200
    assert "X-Cache" not in response
    assert "private" in response["Cache-Control"]
    assert response["ETag"]


RANDOM = "x=8d1f0c2b7a"  # what anyone can make up, a new one for each request


@pytest.mark.parametrize(
    "url,query",
    [
        ("/ja/ipg/2.3/?langs=ja,zh-hans,en", RANDOM),
        ("/ja/ipg/2.3/?langs=ja,zh-hans,en", "fbclid=IwAR2x7Qk"),
        ("/en/ipg/2.3/", "utm_source=chat&utm_medium=share"),
        ("/en/ipg/2.3/example-c/", "utm_source=chat"),
        ("/en/ipg/2.3/?release=2024-09-23&langs=en,ja", "gclid=1"),
        ("/en/", RANDOM),
        ("/zh-hans/penalties/?penalty=warning", RANDOM),
        ("/ja/glossary/", RANDOM),
        ("/en/finder/", RANDOM),
        ("/en/changes/", RANDOM),
        ("/en/changes/2024-09-23/", RANDOM),
        ("/en/changes/feed/", RANDOM),
        ("/en/list/?p=2.3:example-c&p=2.4:definition-1", RANDOM),
        ("/en/search/", RANDOM),
        ("/api/ipg/", RANDOM),
        ("/api/ipg/2.3/", RANDOM),
        ("/api/ipg/2.3/example-c/?release=2024-09-23", RANDOM),
        ("/api/releases/", RANDOM),
        ("/linker.js", RANDOM),
        ("/sitemap.xml", RANDOM),
        ("/sw.js", RANDOM),
        ("/offline/pages.json?lang=ja&langs=en,ja", RANDOM),
        ("/manifest.webmanifest?lang=ja", RANDOM),
    ],
)
def test_a_parameter_the_page_does_not_read_is_ignored_and_the_page_comes_from_the_cache(client, ipg, url, query):
    """Every page type: a made-up parameter, or a link shared with a tracking one, is the page itself, served from
    the cache, never rendered again (nobody gets past the cache by making up parameters)."""
    first = reader().get(url)
    assert (first.status_code, first["X-Cache"]) == (200, "miss")
    with CaptureQueriesContext(connection) as queries:
        shared = reader().get(url + ("&" if "?" in url else "?") + query)
    assert (shared.status_code, shared["X-Cache"]) == (200, "hit"), url
    assert shared.content == first.content and shared["ETag"] == first["ETag"]
    assert len(queries) == 0 and shared.templates == []  # from the cache: no database read, nothing rendered
    assert "public" in shared["Cache-Control"]


def test_the_page_never_sees_a_parameter_it_does_not_read(client, ipg):
    """Not even the first time: a page rendered for a URL with a made-up parameter names none in its links."""
    response = reader().get("/en/ipg/2.3/?langs=en,ja&x=%22%3E%3Cb%3Eplanted&utm_source=chat")
    assert response["X-Cache"] == "miss"
    html = response.content.decode()
    assert "planted" not in html and "utm_source" not in html
    assert kept("/en/ipg/2.3/?langs=en,ja") is not None


@pytest.mark.parametrize("encoding,decompress", [("gzip", gzip.decompress), ("br", brotli.decompress)])
def test_cached_pages_are_sent_compressed(client, ipg, encoding, decompress):
    plain = client.get(COMPARE)
    for _ in range(2):  # as it is stored, then from the cache
        packed = client.get(COMPARE, HTTP_ACCEPT_ENCODING=f"{encoding}, identity")
        assert packed["Content-Encoding"] == encoding
        assert int(packed["Content-Length"]) == len(packed.content) < len(plain.content) / 3
        assert decompress(packed.content) == plain.content


def test_a_missing_section_is_a_404_and_not_kept(client, ipg):
    assert client.get("/en/ipg/9.9/").status_code == 404
    response = client.get("/en/ipg/9.9/")
    assert response.status_code == 404 and "X-Cache" not in response


def test_a_deployment_is_told_to_share_its_cache(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    assert "caching.W001" in [m.id for m in run_checks(include_deployment_checks=True)]
    settings.CACHES = {"default": {"BACKEND": "django_redis.cache.RedisCache", "LOCATION": "redis://127.0.0.1:6379/0"}}
    assert "caching.W001" not in [m.id for m in run_checks(include_deployment_checks=True)]


def test_many_distinct_searches_neither_fill_the_cache_nor_push_pages_out(client, ipg, settings):
    """A page of a query is shared only once a process is asked for it again: queries asked once stay in that
    process's memory, apart from the other pages."""
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "OPTIONS": {"MAX_ENTRIES": 20}}
    }
    assert reader().get("/en/ipg/2.3/")["X-Cache"] == "miss"
    assert kept("/en/ipg/2.3/") is not None
    asker = reader()
    for number in range(40):
        url = f"/en/search/?q=outsider{number}"
        response = asker.get(url)
        assert (response.status_code, response["X-Cache"]) == (200, "miss")
        assert kept(url) is None
    # a new process, with nothing in its own memory: the section still comes from the shared cache
    assert reader().get("/en/ipg/2.3/")["X-Cache"] == "hit"


SPELLINGS = [
    "/en/search/?q=Dark+Confidant&language=en&kind=paragraph",  # as the site writes it
    # the filters in another order, a space and a zero-width one more, the first page named, a filter it does not
    # know, a tracking parameter
    "/en/search/?kind=paragraph&language=xx&language=en&q=++Dark%20Confidant%E2%80%8B+&page=1&utm_source=chat",
]


def test_a_search_page_comes_from_the_cache_under_its_query_as_the_search_reads_it(client, ipg):
    first = client.get(SPELLINGS[0])
    assert (first.status_code, first["X-Cache"]) == (200, "miss")
    assert 'class="result' in first.content.decode() and "public" in first["Cache-Control"]
    for url in SPELLINGS:
        with CaptureQueriesContext(connection) as queries:
            again = client.get(url)
        assert (again.status_code, again["X-Cache"]) == (200, "hit"), url
        assert len(queries) == 0 and again.templates == []  # the search did not run
        assert again.content == first.content and again["ETag"] == first["ETag"]
    assert client.get(SPELLINGS[0], HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    # asked for again: shared with the other processes
    assert kept(SPELLINGS[0]) is not None
    assert reader().get(SPELLINGS[1])["X-Cache"] == "hit"


def test_a_translators_edit_changes_a_kept_search_page(client, ipg):
    from people import client_for, translate_form, translate_url, translator

    url = "/ja/search/?q=qwzxkept"
    process = reader()
    before = process.get(url)
    assert before["X-Cache"] == "miss" and 'class="result-group' not in before.content.decode()
    assert process.get(url)["X-Cache"] == "hit"
    assert reader().get(url)["X-Cache"] == "hit"  # another process: shared once asked for again

    editing = client_for(translator("ja"))
    form = translate_form(editing, "2.4", "ja")
    form.update({"p-example-c-text": "（試験）qwzxkept。", "save": "p-example-c"})
    assert editing.post(translate_url("2.4", "ja"), form).status_code == 302

    after = process.get(url)
    assert (after.status_code, after["X-Cache"]) == (200, "miss")
    assert 'class="result-group' in after.content.decode() and "（試験）qwzxkept。" in shown(after.content.decode())
    assert after["ETag"] != before["ETag"]


def test_a_long_query_is_kept_with_its_notice_and_odd_spellings_answer(client, ipg):
    """A query cut to its first 200 characters says so, kept or not; two that differ only past the cut are one
    page. Bytes that are no text, a page that is no number, a query given twice: answered, never a 500."""
    words = "card " * 60
    first = client.get("/en/search/", {"q": words + "alpha"})
    assert first["X-Cache"] == "miss" and "only its first 200 characters were searched" in first.content.decode()
    again = client.get("/en/search/", {"q": words + "beta"})
    assert again["X-Cache"] == "hit" and again.content == first.content
    for query in ["q=%ED%A0%80card", "q=card&page=abc", "q=card&q=scry", "q=%00", "page=-4&kind=xx", "q=+++"]:
        response = client.get("/en/search/?" + query)
        assert response.status_code == 200, query


@pytest.mark.parametrize("url", ["/en/search/?q=2.3", "/en/search/?q=+2.3+&x=1", "/ja/search/?q=2.3"])
def test_a_search_naming_a_section_still_goes_to_it(client, ipg, url):
    for _ in range(2):
        response = reader().get(url)
        assert response.status_code == 302 and response["Location"].endswith("/ipg/2.3/")


@pytest.mark.parametrize(
    "query", ["?&", "?&&", "?penalty=warning&", "?&penalty=warning", "?penalty=%77arning", "?x=1&penalty=warning"]
)
def test_other_spellings_of_a_query_are_the_same_kept_page(client, ipg, query):
    site_spelling = "/en/penalties/" + ("?penalty=warning" if "penalty" in query else "")
    first = reader().get(site_spelling)
    assert first["X-Cache"] == "miss"
    response = reader().get("/en/penalties/" + query)
    assert (response.status_code, response["X-Cache"]) == (200, "hit") and response.content == first.content


def test_a_parameter_given_twice_that_does_not_repeat_is_served_but_not_kept(client, ipg):
    url = "/en/penalties/?penalty=game-loss&penalty=warning"
    for _ in range(2):
        response = reader().get(url)
        assert response.status_code == 200 and "X-Cache" not in response and "private" in response["Cache-Control"]
    assert kept(url) is None


def test_made_up_compare_cookies_share_one_entry(client, ipg):
    """The cookie is part of the key as the pages read it, so made-up values cannot each add a page."""
    answers = []
    for number in range(6):
        visitor = reader()
        visitor.cookies["ipg_langs"] = f"made-up-{number}"
        answers.append(visitor.get("/en/ipg/2.4/")["X-Cache"])
    assert answers == ["miss"] + ["hit"] * 5
    # a real choice, however it is spelled, still takes the reader to the compared page
    for spelled in ["en,ja", "EN, ja", "en,jp,xx"]:
        chooser = reader()
        chooser.cookies["ipg_langs"] = spelled
        response = chooser.get("/en/ipg/2.4/")
        assert response.status_code == 302 and response["Location"] == "/en/ipg/2.4/?langs=en,ja"


@pytest.mark.parametrize(
    "hosts,warned", [(["*"], True), ([".example.org"], True), (["ipg.example.org", "127.0.0.1"], False)]
)
def test_a_deployment_is_told_when_any_host_name_would_be_kept(settings, hosts, warned):
    settings.ALLOWED_HOSTS = hosts
    assert ("caching.W002" in [m.id for m in run_checks(include_deployment_checks=True)]) is warned


FAST_LANE = "ipgsite.caching.fastlane.FastLaneMiddleware"


@pytest.mark.parametrize(
    "url,headers",
    [
        (COMPARE, {"HTTP_ACCEPT_ENCODING": "br, gzip"}),
        ("/ja/ipg/2.3/", {"HTTP_ACCEPT_ENCODING": "gzip"}),
        ("/en/ipg/2.3/example-c/", {"HTTP_ACCEPT": "text/markdown"}),  # its Markdown, Vary: Accept
        ("/zh-hans/search/?q=%E6%89%8B%E6%9C%AD", {}),  # not compressed
        ("/api/ipg/2.3/", {"HTTP_ORIGIN": "https://example.org", "HTTP_ACCEPT_LANGUAGE": "ja"}),  # CORS
        ("/sitemap.xml", {"HTTP_ACCEPT_ENCODING": "gzip", "HTTP_ACCEPT_LANGUAGE": "zh-hans"}),
    ],
)
def test_the_fast_lane_answers_as_the_whole_stack_does(client, ipg, settings, url, headers):
    """A page served from the page cache, asked for again in the same words, is answered before the rest of the
    middleware runs, with the same headers (security, caching, language, CORS, encoding) and bytes."""
    settings.SECURE_HSTS_SECONDS = 3600  # as deployed: HSTS too
    fast = reader()
    answers = [fast.get(url, secure=True, **headers) for _ in range(3)]
    assert [a["X-Cache"] for a in answers[:2]] == ["miss", "hit"]
    assert hasattr(answers[1].wsgi_request, "session")  # through the whole stack
    assert not hasattr(answers[2].wsgi_request, "session")  # the fast lane: the session middleware never ran
    with modify_settings(MIDDLEWARE={"remove": [FAST_LANE]}):
        usual = reader()
        usual.get(url, secure=True, **headers)
        whole = usual.get(url, secure=True, **headers)
    assert hasattr(whole.wsgi_request, "session")
    assert dict(answers[2].items()) == dict(whole.items()) == dict(answers[1].items())
    assert answers[2].content == whole.content and answers[2].status_code == whole.status_code == 200
    assert "Strict-Transport-Security" in whole and "Content-Security-Policy" in whole


def test_the_fast_lane_answers_conditional_requests_and_follows_edits(client, ipg):
    fast = reader()
    first = fast.get(COMPARE)
    for _ in range(2):
        again = fast.get(COMPARE, HTTP_IF_NONE_MATCH=first["ETag"])
        assert again.status_code == 304 and again["ETag"] == first["ETag"]
    assert not hasattr(again.wsgi_request, "session")
    assert fast.get(COMPARE)["X-Cache"] == "hit"  # the first was rendered: from the page cache, through the stack
    assert not hasattr(fast.get(COMPARE).wsgi_request, "session")  # then from the fast lane

    write("2.3", "example-c", "zh-hans", "牌手结算了黑暗亲信的触发(快速通道测试)。")

    after = fast.get(COMPARE, HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200 and after["X-Cache"] == "miss"
    assert "快速通道测试" in shown(after.content.decode())


def test_the_fast_lane_never_answers_someone_signed_in(client, ipg):
    user = get_user_model().objects.create_user("reader", password="a-long-test-password")
    client.get(COMPARE)
    client.get(COMPARE)
    client.force_login(user)
    for _ in range(2):
        response = client.get(COMPARE)
        assert hasattr(response.wsgi_request, "session") and "private" in response["Cache-Control"]
