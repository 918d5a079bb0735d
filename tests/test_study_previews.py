"""A paragraph's own page, as chat apps read it: a plain GET without cookies or JavaScript, then the
`<meta property="og:…">` tags, and the preview picture they point to."""

import io
import logging
import os
import shutil
import signal
import subprocess
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import pytest
from django.core.management import call_command
from django.db import transaction
from django.test import Client
from PIL import Image, ImageStat

from edits import paragraph, write
from ipgsite.ipg.languages import html_lang
from ipgsite.ipg.models import Paragraph
from ipgsite.study.previews import plain_text, shorten
from pages import parse, term_key, term_mark

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def pictures_in(tmp_path, settings):
    settings.PREVIEW_IMAGE_DIR = tmp_path / "previews"
    return settings.PREVIEW_IMAGE_DIR


def stored(directory):
    """The pictures stored in `directory` (not its lock files)."""
    return sorted(directory.glob("*.png")) if directory.exists() else []


@pytest.fixture
def drawings(caplog):
    """The names of the pictures drawn while the test runs, in any thread (the drawer logs each one)."""
    caplog.set_level(logging.INFO, logger="ipgsite.study.cards")

    def drawn():
        return [r.args[0] for r in caplog.records if r.name == "ipgsite.study.cards" and r.msg.startswith("Drew ")]

    return drawn


def as_a_chat_app(url):
    """What a link preview fetcher sees: no cookies, no JavaScript, the head's Open Graph tags."""
    response = Client().get(url)
    assert response.status_code == 200, url
    assert not response.cookies
    head = parse(response.content).find("head")
    tags = {m.attrs["property"]: m.attrs["content"] for m in head.find_all("meta") if "property" in m.attrs}
    return response, tags


def picture(url):
    path = urlsplit(url)
    response = Client().get(f"{path.path}?{path.query}")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    return Image.open(io.BytesIO(b"".join(response.streaming_content)))


@pytest.mark.parametrize(
    ("lang", "title", "locale", "start"),
    [
        ("en", "2.3 Game Play Error — Hidden Card Error", "en_US", "A player resolves a Dark Confidant trigger"),
        ("zh-hans", "2.3 非公开牌张失误", "zh_CN", None),
        ("ja", "2.3 ゲーム上の誤り ─ 非公開カードに関する誤り", "ja_JP", "プレイヤーが《闇の腹心》"),
    ],
)
def test_the_share_url_previews_its_paragraph_in_three_languages(ipg, lang, title, locale, start):
    response, og = as_a_chat_app(f"/{lang}/ipg/2.3/example-c/")
    text = plain_text(paragraph("2.3", "example-c").text_in(lang))
    assert og["og:title"].startswith(title)
    assert og["og:title"] != title  # names the paragraph too
    assert og["og:description"] == shorten(text, lang)
    assert text.startswith(og["og:description"].rstrip("…"))
    if start:
        assert og["og:description"].startswith(start)
    assert og["og:locale"] == locale
    assert og["og:url"] == f"http://testserver/{lang}/ipg/2.3/example-c/"
    assert urlsplit(og["og:image"]).path == f"/{lang}/ipg/2.3/example-c/preview.png"
    assert (og["og:image:width"], og["og:image:height"]) == ("1200", "630")
    html = parse(response.content)
    assert html.find("link", rel="canonical").attrs["href"] == f"http://testserver/{lang}/ipg/2.3/#example-c"


@pytest.mark.parametrize("lang", ["en", "zh-hans", "ja"])
def test_a_long_paragraph_is_cut_at_the_end_of_a_sentence(ipg, lang):
    _response, og = as_a_chat_app(f"/{lang}/ipg/2.3/definition-1/")
    text = plain_text(paragraph("2.3", "definition-1").text_in(lang))
    description = og["og:description"]
    assert len(description) < len(text)
    assert text.startswith(description)
    assert description[-1] in ".。"


def test_the_section_pages_own_preview_stays_the_sections(ipg):
    _response, og = as_a_chat_app("/en/ipg/2.3/")
    assert og["og:title"] == "2.3 Game Play Error — Hidden Card Error"
    assert not og["og:description"].startswith("A player resolves Dark Confidant")


def test_the_page_opens_the_section_at_the_paragraph_highlighted(client, ipg):
    html = parse(client.get("/ja/ipg/2.3/example-c/").content)
    highlighted = html.find_all(class_="shared-paragraph")
    assert [n.attrs["id"] for n in highlighted] == ["example-c"]
    assert highlighted[0].attrs["aria-current"] == "true"
    assert html.by_id("definition-1") is not None  # the whole section is there
    assert html.find("a", href="/ja/ipg/2.3/") is not None  # and a link to the plain section page
    # A table page, as the section's: each paragraph's control for the player's language (a link to the compare
    # view at that paragraph without JavaScript), the bar's parts and reading settings, the compare choice.
    assert html.find("a", class_="in-other-language").attrs["href"] == "?langs=ja,en#definition-1"
    assert html.by_id("example-c").find("a", class_="in-other-language").attrs["href"] == "?langs=ja,en#example-c"
    tools = html.find("div", class_="section-tools")
    assert tools.find("button", class_="parts-button") and tools.find("details", class_="reading-settings")
    assert html.find("form", class_="compare").attrs["action"] == "/ja/ipg/2.3/example-c/"
    assert html.find("p", class_="compare-pairs") is not None
    # The highlighted paragraph's notes are open; the section's title is ready to stay in view above it.
    assert "open" in html.by_id("example-c").next_siblings()[0].attrs
    assert "2.3" in html.find(class_="shared-title").text()


def columns_by_row(html):
    """Each paragraph as a page lays it out: its key, and the `lang` of each column and whether it is missing."""
    return [
        (row.attrs["id"], [(t.attrs["lang"], "missing" in t.classes) for t in row.find_all(class_="text")])
        for row in html.find_all(class_="row")
    ]


@pytest.mark.parametrize("langs", ["en,ja", "ja,zh-hans,en", "zh-hans,en"])
def test_a_shared_link_with_langs_shows_the_paragraph_in_the_senders_languages(client, ipg, langs):
    url = f"/ja/ipg/2.3/example-c/?langs={langs}"
    response = client.get(url)
    assert response.status_code == 200
    html = parse(response.content)
    codes = langs.split(",")
    columns = [html_lang(code) for code in codes]
    article = html.find("article", class_="shared")
    assert {"comparing", f"columns-{len(codes)}"} <= set(article.classes)
    assert [s.attrs["lang"] for s in article.find(class_="column-heads").find_all("span")] == columns
    shared = html.by_id("example-c")
    assert "shared-paragraph" in shared.classes
    texts = shared.find_all(class_="text")
    assert [t.attrs["lang"] for t in texts] == columns
    for text, code in zip(texts, codes, strict=True):
        # Without spaces: a marked term is a node of its own, which text() sets apart.
        words = "".join(plain_text(paragraph("2.3", "example-c").text_in(code))[:15].split())
        assert words in "".join(text.text(skip=("term-cards",)).split())
    # Exactly as the section page shows the same choice, paragraph for paragraph.
    section = parse(client.get(f"/ja/ipg/2.3/?langs={langs}").content)
    assert columns_by_row(html) == columns_by_row(section)
    # The way back keeps the languages.
    assert html.find(class_="shared-notice").find("a").attrs["href"] == f"/ja/ipg/2.3/?langs={langs}"


def test_a_missing_translation_in_a_shared_compare_link_is_shown_as_missing(client, ipg):
    # 2.4's definition-2 has no Chinese: the Chinese column says so, never shows the English.
    html = parse(client.get("/en/ipg/2.4/definition-2/?langs=zh-hans,en").content)
    chinese, english = html.by_id("definition-2").find_all(class_="text")
    assert "missing" in chinese.classes and "Not yet translated into" in chinese.text()
    english_text = paragraph("2.4", "definition-2").text_en[:40]
    assert english_text not in chinese.text()
    assert english_text in english.text() and english.attrs["lang"] == "en"


def test_one_language_in_the_link_is_shown_under_the_pages_interface(client, ipg):
    html = parse(client.get("/ja/ipg/2.3/example-c/?langs=en").content)
    assert "comparing" not in html.find("article", class_="shared").classes
    shared = html.by_id("example-c")
    assert shared.attrs["lang"] == "en"
    assert paragraph("2.3", "example-c").text_en[:40] in shared.text()
    assert paragraph("2.3", "example-c").text_ja[:20] not in shared.text()
    assert html.find("html").attrs["lang"] == "ja"


def test_the_link_preview_and_canonical_url_ignore_langs(ipg):
    plain, og_plain = as_a_chat_app("/ja/ipg/2.3/example-c/")
    compared, og_compared = as_a_chat_app("/ja/ipg/2.3/example-c/?langs=en,ja")
    assert og_compared == og_plain
    assert og_compared["og:description"].startswith("プレイヤーが《闇の腹心》")
    assert og_compared["og:url"] == "http://testserver/ja/ipg/2.3/example-c/"

    def canonical(response):
        return parse(response.content).find("link", rel="canonical").attrs["href"]

    assert canonical(compared) == canonical(plain) == "http://testserver/ja/ipg/2.3/#example-c"


@pytest.mark.parametrize(
    "query",
    [
        "langs=fr",
        "langs=",
        "langs=en,en",
        "langs=EN,Ja",
        "langs=zh,jp",
        "langs=en&langs=ja&langs=",
        "langs=%00%ff%fe,ja",
        "langs=" + "en," * 500,
        "utm_source=chat&langs=JA,en",
    ],
)
def test_bad_langs_in_a_shared_link_redirect_as_on_the_section_page(client, ipg, query):
    response = client.get(f"/ja/ipg/2.3/example-c/?{query}")
    section = client.get(f"/ja/ipg/2.3/?{query}")
    assert response.status_code == section.status_code == 302
    assert response["Location"] == section["Location"].replace("/ja/ipg/2.3/", "/ja/ipg/2.3/example-c/", 1)
    assert client.get(response["Location"]).status_code == 200


def test_the_shared_page_neither_reads_nor_changes_the_remembered_choice(client, ipg):
    client.cookies["ipg_langs"] = "en,zh-hans"
    response = client.get("/ja/ipg/2.3/example-c/")
    assert response.status_code == 200  # the sender's link, not the reader's habit
    assert [t.attrs["lang"] for t in parse(response.content).by_id("example-c").find_all(class_="text")] == ["ja"]
    compared = client.get("/ja/ipg/2.3/example-c/?langs=en,ja")
    assert "ipg_langs" not in compared.cookies


def test_a_missing_translation_is_previewed_as_missing_never_in_english(ipg):
    # 2.4's definition-2 has no Chinese; 2.1 has only Japanese.
    for url, english in [
        ("/zh-hans/ipg/2.4/definition-2/", paragraph("2.4", "definition-2").text_en),
        ("/en/ipg/2.1/example-a/", None),
    ]:
        _response, og = as_a_chat_app(url)
        assert og["og:description"] in ("尚未翻译为简体中文。", "Not yet translated into English.")
        if english:
            assert english[:40] not in og["og:description"]
    _response, og = as_a_chat_app("/en/ipg/2.1/example-a/")
    assert og["og:description"] == "Not yet translated into English."


def test_descriptions_are_cut_where_a_sentence_ends_cjk_aware():
    english = "First sentence here. " * 5 + "A last sentence that runs on for a very long time " * 5
    cut = shorten(english, "en", limit=120)
    assert cut.endswith("here.") and len(cut) <= 120
    japanese = "プレイヤーがカードを引いた。" * 4 + "対戦相手は" * 40
    cut = shorten(japanese, "ja", limit=100)
    assert cut.endswith("。") and len(cut) <= 100
    assert " " not in cut
    # No sentence end within reach: a character boundary in CJK, a word boundary in English.
    assert shorten("判" * 150, "zh-hans", limit=100) == "判" * 99 + "…"
    words = shorten("word " * 100, "en", limit=50)
    assert words.endswith("word…") and len(words) <= 50
    assert shorten("Short.", "en") == "Short."


@pytest.mark.parametrize("lang", ["en", "zh-hans", "ja"])
def test_the_preview_picture_is_a_1200_by_630_png_with_text_on_it(ipg, lang):
    _response, og = as_a_chat_app(f"/{lang}/ipg/2.3/example-c/")
    image = picture(og["og:image"])
    assert image.format == "PNG"
    assert image.size == (1200, 630)
    # Not blank: the text below the title band makes the body's pixels vary.
    body = image.convert("L").crop((0, 180, 1200, 560))
    assert ImageStat.Stat(body).var[0] > 200


def test_the_pictures_are_palette_pngs_of_a_few_kilobytes(client, ipg):
    """A chat app downloads the picture of every link shared: a palette PNG (the card's few colours and the shades of
    its anti-aliased text between them) is a third of a true-colour one's bytes."""
    sizes = []
    for key in Paragraph.objects.filter(section__number="2.3").values_list("key", flat=True):
        for lang in ("en", "zh-hans", "ja"):
            response = client.get(f"/{lang}/ipg/2.3/{key}/preview.png")
            data = b"".join(response.streaming_content)
            image = Image.open(io.BytesIO(data))
            assert image.mode == "P" and len(image.getcolors()) <= 64
            sizes.append(len(data))
    assert sum(sizes) / len(sizes) < 25_000 and max(sizes) < 64_000


def test_the_picture_is_drawn_again_after_an_edit_through_the_write_path(ipg, pictures_in):
    _response, og = as_a_chat_app("/en/ipg/2.3/example-c/")
    before = picture(og["og:image"])
    files_before = [p.name for p in stored(pictures_in)]
    assert len(files_before) == 1
    picture(og["og:image"])  # asked again: the same file, not drawn again
    assert [p.name for p in stored(pictures_in)] == files_before

    write("2.3", "example-c", "en", "A player draws four cards.")
    _response, edited = as_a_chat_app("/en/ipg/2.3/example-c/")
    assert edited["og:description"] == "A player draws four cards."
    assert edited["og:image"] != og["og:image"]  # a new URL, so chat apps fetch it again
    after = picture(edited["og:image"])
    assert after.tobytes() != before.tobytes()
    assert len(stored(pictures_in)) == 1  # the earlier text's picture is gone
    assert [p.name for p in stored(pictures_in)] != files_before


def test_a_picture_replaced_and_removed_while_it_is_asked_for_is_always_served(ipg, pictures_in):
    """Another process draws the picture again and removes it, over and over, while readers ask for it."""
    _response, og = as_a_chat_app("/en/ipg/2.3/example-c/")
    expected = picture(og["og:image"]).tobytes()
    (path,) = stored(pictures_in)
    data = path.read_bytes()
    stop = threading.Event()

    def other_process():
        while not stop.is_set():
            path.unlink(missing_ok=True)
            spare = pictures_in / ".other-process.png"
            spare.write_bytes(data)
            os.replace(spare, path)
            time.sleep(0)

    thread = threading.Thread(target=other_process)
    thread.start()
    try:
        served = [picture(og["og:image"]).tobytes() == expected for _ in range(100)]
    finally:
        stop.set()
        thread.join()
    assert all(served)


def test_a_drawn_picture_named_by_its_url_is_served_without_the_database(ipg, pictures_in, django_assert_num_queries):
    _response, og = as_a_chat_app("/ja/ipg/2.3/example-c/")
    expected = picture(og["og:image"]).tobytes()  # drawn now, when first asked for
    with django_assert_num_queries(0):
        assert picture(og["og:image"]).tobytes() == expected
    # The near misses: a digest no picture has, or no digest at all, is the paragraph's current picture.
    path = urlsplit(og["og:image"]).path
    for query in ("v=0123456789abcdef", "v=../../etc/passwd", ""):
        assert picture(f"{path}?{query}").tobytes() == expected
    assert Client().get("/ja/ipg/2.3/example-z/preview.png?v=0123456789abcdef").status_code == 404


def test_a_picture_is_sent_as_it_is_stored_never_gzipped_again(ipg, pictures_in):
    _response, og = as_a_chat_app("/en/ipg/2.3/example-c/")
    path = urlsplit(og["og:image"])
    response = Client().get(f"{path.path}?{path.query}", HTTP_ACCEPT_ENCODING="gzip, br")
    assert response.status_code == 200 and "Content-Encoding" not in response
    (file,) = stored(pictures_in)
    assert b"".join(response.streaming_content) == file.read_bytes()
    # The near miss: the page itself is still compressed for a reader who accepts it.
    page = Client().get("/en/ipg/2.3/example-c/", HTTP_ACCEPT_ENCODING="gzip")
    assert page["Content-Encoding"] == "gzip"


def test_a_load_or_an_edit_draws_no_picture_the_first_request_draws_it_once(
    ipg, pictures_in, drawings, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        call_command("loadcontent", stdout=io.StringIO())
        write("2.3", "example-c", "ja", "プレイヤーがカードを4枚引いた。")
    assert stored(pictures_in) == [] and drawings() == []  # the load and the edit returned having drawn nothing
    _response, og = as_a_chat_app("/ja/ipg/2.3/example-c/")
    assert stored(pictures_in) == []  # nor does the page that names the picture
    first = picture(og["og:image"])
    (file,) = stored(pictures_in)
    assert file.name.startswith("2.3-example-c-ja-") and drawings() == [file.name]
    mtime = file.stat().st_mtime_ns
    assert picture(og["og:image"]).tobytes() == first.tobytes()
    # Served from what the first request stored: nothing drawn or touched again.
    assert drawings() == [file.name] and stored(pictures_in) == [file] and file.stat().st_mtime_ns == mtime


def fetch(url):
    """(status, body, Retry-After) of a GET, as a chat app's fetcher sees it."""
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            return response.status, response.read(), None
    except urllib.error.HTTPError as error:
        return error.code, error.read(), error.headers.get("Retry-After")


def test_many_readers_asking_at_once_for_pictures_never_drawn_get_each_drawn_once(live_ipg, pictures_in, drawings):
    """Chat apps fetch a freshly shared link's picture from several places at once: 24 requests on as many threads
    of the live server, 8 for each of three pictures no one has asked for before."""
    urls = [f"{live_ipg.url}/{lang}/ipg/2.3/example-c/preview.png" for lang in ("en", "zh-hans", "ja")]
    start = threading.Barrier(24)

    def ask(url):
        start.wait()
        return url, fetch(url)

    with ThreadPoolExecutor(24) as pool:
        answers = list(pool.map(ask, [url for url in urls for _ in range(8)]))
    pictures = {url: {body for _url, (status, body, _) in answers if _url == url and status == 200} for url in urls}
    retries = [(status, body, retry) for _url, (status, body, retry) in answers if status != 200]
    # Each got its picture, the same bytes for every request, or a clear answer to ask again.
    assert all(status == 503 and retry and body for status, body, retry in retries)
    assert all(len(bodies) == 1 for bodies in pictures.values())
    # Each picture was drawn once, however many asked for it at the same moment.
    assert sorted(drawings()) == sorted(p.name for p in stored(pictures_in)) and len(drawings()) == 3
    assert {p.read_bytes() for p in stored(pictures_in)} == {body for bodies in pictures.values() for body in bodies}


@pytest.mark.skipif(not shutil.which("flock"), reason="util-linux's flock(1) holds the lock from another process")
def test_a_reader_asking_while_another_process_draws_too_long_is_told_to_retry(client, ipg, pictures_in, drawings):
    """Another process holds the picture's lock (its drawer is stuck): the request waits a few seconds, then answers
    503 with Retry-After, never hangs until the server's timeout; once the other lets go, the picture is drawn."""
    locks = pictures_in / ".locks"
    locks.mkdir(parents=True)
    other = subprocess.Popen(["flock", str(locks / "2.3-example-c-en"), "sleep", "60"], start_new_session=True)
    try:
        deadline = time.monotonic() + 10
        while subprocess.run(["flock", "-n", str(locks / "2.3-example-c-en"), "true"]).returncode == 0:
            assert time.monotonic() < deadline, "the other process never took the lock"
            time.sleep(0.05)
        busy = client.get("/en/ipg/2.3/example-c/preview.png")
        assert busy.status_code == 503 and int(busy["Retry-After"]) > 0
        assert "ask again" in busy.content.decode() and drawings() == [] and stored(pictures_in) == []
        # The other languages' pictures of the paragraph are not held up by it.
        assert client.get("/ja/ipg/2.3/example-c/preview.png").status_code == 200
    finally:
        os.killpg(other.pid, signal.SIGKILL)  # flock and the command holding its lock
        other.wait()
    assert client.get("/en/ipg/2.3/example-c/preview.png").status_code == 200
    assert len(drawings()) == 2


def test_a_write_that_is_rolled_back_draws_nothing(ipg, pictures_in, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        with pytest.raises(RuntimeError), transaction.atomic():
            write("2.3", "example-c", "en", "A player draws four cards.")
            raise RuntimeError("the request failed after the write")
    assert stored(pictures_in) == []


@pytest.mark.parametrize(
    "url",
    [
        "/en/ipg/2.3/example-z/",
        "/en/ipg/9.9/example-a/",
        "/en/ipg/2.3/Example-C/",
        "/ja/ipg/2.3/example-z/preview.png",
        "/en/ipg/2.3/example_c/",
    ],
)
def test_an_unknown_paragraph_is_a_404(client, ipg, url):
    assert client.get(url).status_code == 404


def test_the_link_control_of_a_section_offers_the_paragraphs_own_page(client, ipg):
    html = parse(client.get("/zh-hans/ipg/2.3/").content)
    assert html.by_id("example-c").find("a", class_="permalink").attrs["href"] == "#example-c"  # works without script
    # One menu for the page, not one per paragraph: the script moves it under the paragraph whose ¶ was tapped.
    [menu] = html.find_all(class_="paragraph-menu")
    assert "hidden" in menu.attrs and menu.attrs["data-section"] == "2.3"
    assert menu.attrs["data-share"] == "/zh-hans/ipg/2.3/{key}/"
    assert share_links(html, "example-c") == ("/zh-hans/ipg/2.3/example-c/",) * 2


def share_links(html, key):
    """What the ¶ control of a paragraph offers: the link the script copies, and the menu's link to share (both made
    by static/js/site.js and study.js from the page's one menu, its `data-share` with the paragraph's key)."""
    [menu] = html.find_all(class_="paragraph-menu")
    assert html.by_id(key).find("a", class_="permalink") is not None
    link = menu.attrs["data-share"].replace("{key}", key)
    return link, link


@pytest.mark.parametrize(
    ("page", "share"),
    [
        ("/ja/ipg/2.3/?langs=en,ja", "/ja/ipg/2.3/example-c/?langs=en,ja"),
        ("/en/ipg/2.3/?langs=ja,zh-hans,en", "/en/ipg/2.3/example-c/?langs=ja,zh-hans,en"),
        ("/zh-hans/ipg/2.3/?langs=zh-hans,en", "/zh-hans/ipg/2.3/example-c/?langs=zh-hans,en"),
        # One language is no comparison: the link is the page's plain share page, as before.
        ("/ja/ipg/2.3/", "/ja/ipg/2.3/example-c/"),
        ("/ja/ipg/2.3/?langs=ja", "/ja/ipg/2.3/example-c/"),
        ("/ja/ipg/2.3/?langs=en", "/ja/ipg/2.3/example-c/"),
    ],
)
def test_the_link_control_of_a_compare_page_shares_what_the_sender_sees(client, ipg, page, share):
    response = client.get(page)
    assert response.status_code == 200
    html = parse(response.content)
    assert share_links(html, "example-c") == (share, share)
    if "comparing" not in html.find("article").classes:
        return
    # The recipient sees the paragraph in the sender's columns.
    shared = parse(client.get(share).content)
    assert "shared-paragraph" in shared.by_id("example-c").classes
    assert [t.attrs["lang"] for t in shared.by_id("example-c").find_all(class_="text")] == [
        t.attrs["lang"] for t in html.by_id("example-c").find_all(class_="text")
    ]


def test_a_remembered_choice_reaches_the_link_through_the_redirect(client, ipg):
    client.cookies["ipg_langs"] = "ja,en"
    response = client.get("/en/ipg/2.3/", follow=True)
    assert response.redirect_chain == [("/en/ipg/2.3/?langs=ja,en", 302)]
    assert share_links(parse(response.content), "example-c") == ("/en/ipg/2.3/example-c/?langs=ja,en",) * 2


@pytest.mark.parametrize(
    ("query", "langs"),
    [
        ("langs=JA,en", "?langs=ja,en"),
        ("langs=en,en,ja", "?langs=en,ja"),
        ("langs=jp,zh", "?langs=ja,zh-hans"),
        ("langs=en&langs=ja", "?langs=en,ja"),
        ("langs=%22%3E%3Cscript%3E,en,ja", "?langs=en,ja"),
        ("langs=%00%ff%fe,ja,en", "?langs=ja,en"),
        ("langs=" + "en," * 500 + "ja", "?langs=en,ja"),
        ("langs=EN", ""),
        ("langs=fr", ""),
    ],
)
def test_a_crafted_langs_is_normalized_by_a_redirect_before_any_link_carries_it(client, ipg, query, langs):
    response = client.get(f"/ja/ipg/2.3/?{query}")
    assert response.status_code == 302
    assert response.content == b""  # no page, so no ¶ link, is made from the crafted value
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert share_links(parse(page.content), "example-c") == (f"/ja/ipg/2.3/example-c/{langs}",) * 2


def term_marks(html):
    """Every marked term of a page's paragraphs and notes, in order: where its mark links, which term, the words,
    and its card: the card's `lang`, the term's name and its names in the other languages (each with its `lang`),
    and the link to its definition."""
    found = []
    for block in html.find_all(class_="row") + html.find_all("aside", class_="note"):
        for mark in block.find_all("a", class_="term"):
            card = html.by_id("term-" + term_key(mark))
            names = [(n.attrs["lang"], n.text()) for n in card.find_all("span", class_="term-name")]
            found.append(
                (
                    mark.attrs["href"],
                    term_key(mark),
                    "note" if block.tag == "aside" else "paragraph",
                    mark.text(),
                    card.attrs["lang"],
                    names,
                    card.find("a").attrs["href"],
                )
            )
    return found


@pytest.mark.parametrize(
    ("lang", "langs"),
    [("en", ""), ("ja", ""), ("zh-hans", ""), ("ja", "?langs=en,ja"), ("en", "?langs=zh-hans,ja,en")],
)
def test_the_share_page_marks_terms_as_the_section_page_does(client, ipg, lang, langs):
    shared = term_marks(parse(client.get(f"/{lang}/ipg/2.3/example-b/{langs}").content))
    section = term_marks(parse(Client().get(f"/{lang}/ipg/2.3/{langs}").content))
    assert shared == section
    places = [mark[2] for mark in shared]
    assert "paragraph" in places and "note" in places  # paragraphs' marks and notes'
    assert any(names for *_rest, names, _href in shared)


def test_a_scry_in_the_shared_english_paragraph_offers_its_chinese_and_japanese_names(client, ipg):
    page = parse(client.get("/en/ipg/2.3/example-b/").content)
    mark = term_mark(page.by_id("example-b"), "scry")
    assert (mark.text(), mark.attrs["href"]) == ("scries", "/en/glossary/#scry")
    card = page.by_id("term-scry")
    assert {n.attrs["lang"]: n.text() for n in card.find_all("span", class_="term-name")} == {
        "en": "scry",
        "zh-Hans": "占卜",
        "ja": "占術",
    }


def test_the_share_page_reads_the_stored_occurrences_once(client, ipg):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        assert client.get("/ja/ipg/2.3/definition-1/?langs=en,zh-hans,ja").status_code == 200
    assert len([q for q in queries if "terms_occurrence" in q["sql"]]) == 1


def test_the_share_page_is_kept_in_the_page_cache_until_the_text_changes(ipg):
    first, _og = as_a_chat_app("/ja/ipg/2.3/example-c/")
    again, _og = as_a_chat_app("/ja/ipg/2.3/example-c/")
    assert (first["X-Cache"], again["X-Cache"]) == ("miss", "hit")
    write("2.3", "example-c", "ja", "プレイヤーがカードを4枚引いた。")
    edited, og = as_a_chat_app("/ja/ipg/2.3/example-c/")
    assert edited["X-Cache"] == "miss"
    assert og["og:description"] == "プレイヤーがカードを4枚引いた。"


def test_without_a_cjk_font_the_check_says_what_to_install_and_the_page_still_previews(client, ipg, settings):
    from django.core.checks import run_checks

    settings.PREVIEW_FONT = "/nonexistent/font.ttc"
    warnings = [c for c in run_checks() if c.id == "study.W001"]
    assert len(warnings) == 1 and "/nonexistent/font.ttc" in warnings[0].msg
    assert client.get("/en/ipg/2.3/example-c/preview.png").status_code == 503
    _response, og = as_a_chat_app("/en/ipg/2.3/example-c/")
    assert og["og:description"].startswith("A player resolves")
    settings.PREVIEW_FONT = ""
    assert [c for c in run_checks() if c.id == "study.W001"] == []
    assert client.get("/en/ipg/2.3/example-c/preview.png").status_code == 200


def test_the_pictures_lines_break_between_words_in_english_and_anywhere_in_cjk():
    from ipgsite.study import cards

    english = (
        "A player commits an error in the game that cannot be corrected by only publicly available information. " * 3
    )
    lines = cards.wrap(english, cards.font("en", 36), 1072, 3)
    assert len(lines) == 3 and lines[-1].endswith("…")
    words = set(english.split())
    assert all(word in words for line in lines for word in line.rstrip("…").split())
    japanese = "プレイヤーが《闇の腹心》の誘発型能力を解決して、そのカードを公開せずに手札に入れた。" * 6
    face = cards.font("ja", 36)
    lines = cards.wrap(japanese, face, 1072, 3)
    assert "".join(lines).rstrip("…") == japanese[: len("".join(lines)) - 1]
    assert all(face.getlength(line) <= 1072 for line in lines)
    assert face.getlength(lines[0]) > 1072 - 2 * 36  # filled to within a character or two of the width
