"""Hostile input to search: whatever the query string, the reader gets a normal page (results or none), never a 500;
and no query makes a search do more than its budget of work, whatever its length."""

import tracemalloc
from itertools import islice
from urllib.parse import quote, quote_from_bytes, urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ipgsite.search.expanding import expand
from ipgsite.search.finding import MAX_TRIES, PAGE_SIZE, find, tries
from ipgsite.search.models import Entry
from ipgsite.search.query import MAX_LENGTH, MAX_TERMS, Query
from pages import parse
from scan import assert_kept_finds_as_a_scan_does

pytestmark = pytest.mark.database  # the entries kept in memory are read from either database

NO_FIXTURE_RESET = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]


def assert_normal_page(response, q=""):
    assert response.status_code in (200, 302), (q, response.status_code)
    if response.status_code == 302:  # a section's number or name: straight to it
        assert response["Location"].startswith("/en/ipg/")
        return None
    html = parse(response.content)
    assert html.find("form", class_="search-form") is not None
    assert "Traceback" not in response.content.decode()
    return html


def still_works(client):
    html = parse(client.get("/en/search/", {"q": "Dark Confidant"}).content)
    assert [a.attrs["href"] for a in html.find_all("a") if a.attrs.get("href") == "/en/ipg/2.3/#example-c"]


HOSTILE = [
    # FTS5 syntax
    '"',
    '""',
    '"""',
    "*",
    "(",
    ")",
    "()",
    ":",
    "^",
    "-",
    "+",
    "NEAR",
    "AND",
    "OR",
    "NOT",
    "AND OR NOT",
    "NEAR(dark confidant)",
    "NEAR(dark confidant, 2)",
    '"dark" AND "confidant"',
    "dark OR",
    "folded:dark",
    "search_entry_trigrams:dark",
    "{folded}: dark",
    "^dark",
    "dark*",
    '("',
    '"unterminated',
    "dark NOT",
    "-dark",
    # SQL
    "' OR 1=1 --",
    "'; DROP TABLE search_entry; --",
    '" OR ""="',
    "1; SELECT * FROM auth_user",
    "%",
    "_",
    "\\",
    "%%%",
    "%' OR '1'='1",
    "\\'",
    "') OR ('1'='1",
    # tsquery and LIKE
    "!",
    "&",
    "|",
    "<->",
    "手札 & 警告",
    "手 | 札",
    "!手札",
    "手札:*",
    # size: as long as an address may be (MAX_URL_LENGTH, 4,000 characters as sent; longer is a 414, before any page
    # reads it: tests/test_security.py)
    "x" * 3_900,
    "手" * 400,  # 3,600 characters once percent-encoded
    "dark " * 700,
    "a b c d e f g h i j k l m n o p",
    # NUL bytes, control characters
    "\x00",
    "dark\x00confidant",
    "\x00" * 50,
    "\x07\x1b[31m",
    "\r\n\t",
    # emoji, right-to-left marks, other formatting
    "🃏",
    "👨‍👩‍👧",
    "🇯🇵",
    "\u202eDark Confidant\u202c",
    "\u200fمرحبا\u200f",
    "\u200b",
    "\ufeff",
    "e\u0301",
    # the new query paths: stems (a column of the trigram table), traditional characters, near misses
    "stems : scri",
    'stems : " scri "',
    "{stems}: card",
    "folded : dark OR stems : dark",
    '" scri "',
    "scried*",
    "scried OR mulligans",
    '黑暗親信 OR "',
    "額外看牌 NEAR(再調度)",
    "非公開牌張' OR 1=1 --",
    "遊戲行動失誤~額外看牌 ~",
    "%scri%",
    "mulligna\x00",
    "Hiden Card Eror" * 20,
    "mulligna " * 40,
    "ｍｕｌｌｉｇａｎｅｄ",
    "MULLIGANED",
    "scrİed",  # a capital dotted I: casefolds to two characters
    "ﬁnds",  # a ligature
    # no query at all
    "",
    " ",
    "\u3000",
]


@pytest.mark.parametrize("q", HOSTILE, ids=range(len(HOSTILE)))
def test_hostile_queries_get_a_normal_page(client, ipg, q):
    assert_normal_page(client.get("/en/search/", {"q": q}), q)


@pytest.mark.parametrize(
    "raw",
    [
        "%ED%A0%80",  # a lone high surrogate, UTF-8-encoded
        "%ED%B0%80dark",  # a lone low surrogate
        "%FF%FE",  # not UTF-8 at all
        "%C0%AF",  # overlong encoding
        "%00",
        "%E6%89%8B%E6",  # cut in the middle of a character
    ],
)
def test_undecodable_bytes_get_a_normal_page(client, ipg, raw):
    assert_normal_page(client.get(f"/en/search/?q={raw}"), raw)


def test_lone_surrogates_reaching_the_search_itself_are_dropped(ipg):
    query = Query.parse("\ud800Dark\udfff Confidant\ud83d")
    assert query.text == "Dark Confidant"
    assert find(query, "en").total == find(Query.parse("Dark Confidant"), "en").total > 0


def test_an_overlong_query_is_cut_with_a_notice(client, ipg):
    html = assert_normal_page(client.get("/en/search/", {"q": "Dark Confidant " + "x" * 3_900}))
    notice = html.find("p", class_="notice")
    assert notice and f"first {MAX_LENGTH} characters" in notice.text()
    assert len(html.find("input", id="search-q").attrs["value"]) <= MAX_LENGTH
    # What was searched is the beginning of the query.
    assert html.find("input", id="search-q").attrs["value"].startswith("Dark Confidant")


def test_a_query_of_many_words_is_searched_for_its_first_words_with_a_notice(client, ipg):
    html = assert_normal_page(client.get("/en/search/", {"q": " ".join(f"w{i}" for i in range(20))}))
    assert "Only the first 8 words" in html.find("p", class_="notice").text()


def test_invisible_formatting_does_not_hide_a_match(client, ipg):
    html = assert_normal_page(client.get("/en/search/", {"q": "\u202eDark\u200b Confidant\u202c"}))
    assert "/en/ipg/2.3/#example-c" in [a.attrs["href"] for a in html.find_all("a")]


@pytest.mark.parametrize(
    "params",
    [
        {"q": "手札", "page": "-1"},
        {"q": "手札", "page": "abc"},
        {"q": "手札", "page": "99999999999999999999"},
        {"q": "手札", "page": "1e9"},
        {"q": "手札", "page": "1000"},
        {"q": "手札", "language": ["en", "en", "xx", "\x00"], "kind": ["note", "'; --"]},
        {"q": ["a", "b"]},
    ],
)
def test_hostile_filters_and_pages_get_a_normal_page(client, ipg, params):
    assert_normal_page(client.get("/en/search/?" + urlencode(params, doseq=True)))


def test_the_database_is_intact_after_all_of_it(client, ipg):
    for q in HOSTILE:
        client.get("/en/search/", {"q": q})
    still_works(client)


# Properties: any query string at all


@settings(max_examples=150, deadline=None, suppress_health_check=NO_FIXTURE_RESET)
@given(q=st.text(alphabet=st.characters(exclude_categories=()), max_size=300))
def test_no_text_gives_a_500(client, ipg, q):
    """Any text, lone surrogates included, sent the way a browser would (UTF-8, percent-encoded)."""
    encoded = quote(q, safe="", errors="surrogatepass")
    assert_normal_page(client.get(f"/en/search/?q={encoded}"), q)


@settings(max_examples=100, deadline=None, suppress_health_check=NO_FIXTURE_RESET)
@given(raw=st.binary(max_size=300))
def test_no_bytes_give_a_500(client, ipg, raw):
    assert_normal_page(client.get(f"/en/search/?q={quote_from_bytes(raw, safe='')}"), raw)


@settings(max_examples=60, deadline=None, suppress_health_check=NO_FIXTURE_RESET)
@given(
    params=st.lists(st.tuples(st.sampled_from(["q", "language", "kind", "page"]), st.text(max_size=40)), max_size=8),
    reader=st.sampled_from(["en", "zh-hans", "ja"]),
)
def test_no_combination_of_parameters_gives_a_500(client, ipg, params, reader):
    response = client.get(f"/{reader}/search/?" + urlencode(params))
    assert response.status_code in (200, 302)


# Text made of what the new query paths read: English words and their inflections, traditional and simplified
# characters, kana, and the syntax of FTS5, LIKE and tsquery.
JUDGE_WORDS = [
    "scry", "scries", "scried", "scrying", "mulligan", "mulligans", "mulliganed", "drew", "draws", "cards", "the",
    "shuffling", "Hiden", "Eror", "mulligna", "Card", "黑暗親信", "額外看牌", "再調度", "非公開牌張", "闇の腹心",
    "占術", "手札", "誘發", "stems", "folded", "NEAR", "OR", "AND", "NOT",
]  # fmt: skip
PIECES = st.one_of(
    st.sampled_from(JUDGE_WORDS),
    st.text(alphabet="\"*():^-+%_\\'~{}!&|<>@ 　額親調張開牌信度ingsedy", max_size=6),
    st.text(alphabet=st.characters(exclude_categories=()), max_size=4),
)
JUDGE_TEXT = st.lists(PIECES, max_size=10).map(" ".join)


@settings(max_examples=150, deadline=None, suppress_health_check=NO_FIXTURE_RESET)
@given(q=JUDGE_TEXT, reader=st.sampled_from(["en", "zh-hans", "ja"]), language=st.sampled_from(["", "en", "ja"]))
def test_no_judge_like_text_gives_a_500(client, ipg, q, reader, language):
    """Inflections, traditional characters, near misses and query syntax mixed: a normal page, and every
    "Did you mean" link is a search of this site."""
    encoded = quote(q, safe="", errors="surrogatepass")
    response = client.get(f"/{reader}/search/?q={encoded}&language={language}")
    assert response.status_code in (200, 302), (q, response.status_code)
    if response.status_code == 200:
        html = parse(response.content)
        assert html.find("form", class_="search-form") is not None
        box = html.find("p", class_="did-you-mean")
        for link in box.find_all("a") if box else []:
            assert link.attrs["href"].startswith("?q=") and link.attrs["lang"] in ("en", "zh-Hans", "ja")


@settings(max_examples=150, deadline=None, suppress_health_check=NO_FIXTURE_RESET)
@given(q=JUDGE_TEXT)
def test_the_index_finds_what_a_scan_finds(ipg, q):
    """Stems, converted characters, every form of every term, CJK phrases split into parts: the index of the entries
    kept in memory agrees with a scan of every entry (tests/scan.py), on both databases."""
    assert_kept_finds_as_a_scan_does(Query.parse(q))


@settings(max_examples=300, deadline=None, suppress_health_check=NO_FIXTURE_RESET)
@given(q=st.text(alphabet=st.characters(exclude_categories=()), max_size=300))
def test_the_search_itself_never_raises(ipg, q):
    """The module below the view, given raw strings a view would never pass on (lone surrogates, NUL)."""
    query = Query.parse(q)
    results = find(query, "en")
    assert results.shown == min(results.total, PAGE_SIZE)  # the count is that of the entries the page is cut from
    assert_within_budget(results)
    query.text.encode("utf-8")  # what is shown back is always valid text


# Work: every search bounded by design, whatever the query's length. An unspaced CJK phrase is split into parts, and
# the parts into groups of parts when no entry holds them all: once 2^n groups, 770 MB and a worker killed at 40
# characters. No timings here (noisy machines): the work each search counts (`Results.work`), and its peak memory.

REVIEWED = "牌张暗手戏信牌南记那展非发违暗暗败非公记规触黑公忘戏规那记亲结警但非戏发那公黑开"  # the review's 500
PEAK = 2_000_000  # bytes a search may allocate at its peak on the test corpus (each takes under 0.2 MB)


def assert_within_budget(results):
    """Each count of the search's work within what its caps allow, whatever the query."""
    work, entries = results.work, Entry.objects.count()
    assert work.terms <= MAX_TERMS
    assert work.groups <= 1 + MAX_TRIES + MAX_TERMS  # with the small words; groups of words; each word alone
    assert work.searches <= 2 + 1 + MAX_TRIES + 1  # as typed; split; each level of groups tried
    assert work.read <= MAX_TERMS * entries
    assert work.ranked <= work.searches * entries
    assert work.snippets <= PAGE_SIZE
    assert all(len(hit.missing) <= MAX_TERMS for group in results.groups for hit in group.hits)


def traced(query, reader):
    """The search's results, and the most memory it allocated at once (bytes)."""
    tracemalloc.start()
    try:
        results = find(query, reader)
        return results, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.fixture
def warm(ipg):
    """The entries kept in memory, read once per content version: not a search's own work."""
    find(Query.parse("手札"), "en")


@pytest.mark.parametrize("reader", ["en", "zh-hans", "ja"])
def test_a_longer_unspaced_phrase_costs_no_more_than_a_short_one(warm, reader):
    """The review's phrase cut at growing lengths, up to the longest the search takes: the same bounded work."""
    searched = []
    for length in (10, 20, 30, 40, 100, MAX_LENGTH):
        results, peak = traced(Query.parse((REVIEWED * 5)[:length]), reader)
        assert peak <= PEAK, (length, peak)
        assert results.total and results.partial, length  # no entry holds it all: those holding most of it
        searched.append(results)
    for results in searched:
        assert_within_budget(results)
        assert results.dropped_parts and results.work.terms == MAX_TERMS


@pytest.mark.parametrize(
    "reader, notice, partial",
    [
        ("en", "Only the first 8 words", "No paragraph or note contains every word of your query."),
        ("zh-hans", "前8个词", "没有段落或注释包含您查询的全部词语。"),
        ("ja", "最初の8語", "検索語をすべて含む段落・注釈はありません。"),
    ],
)
def test_the_reviewed_phrase_gets_a_clear_page_in_every_language(client, ipg, reader, notice, partial):
    response = client.get(f"/{reader}/search/?q={quote(REVIEWED)}")
    html = assert_normal_page(response, REVIEWED)
    assert html.find("input", id="search-q").attrs["value"] == REVIEWED
    # Its first parts were searched, and the page says so.
    assert notice in html.find("p", class_="notice").text()
    # No paragraph holds all of them: those holding most of them, each saying which parts it lacks.
    assert html.find("p", class_="result-count").text().startswith(partial)
    results = html.find_all("li", class_="result")
    assert results and html.find("p", class_="no-results") is None
    for result in results:
        assert result.find("p", class_="snippet").find("mark") is not None
        missing = [s.text() for s in result.find_all("s")]
        assert missing and len(missing) < MAX_TERMS and all(part in REVIEWED for part in missing)


def test_a_long_phrase_keeps_room_for_the_words_after_it(warm):
    """The parts are shared out in the order typed, each term keeping at least its first: a word typed after a long
    phrase is still searched. In English text only, the phrase's parts are found nowhere: the word alone finds."""
    results = find(Query.parse(REVIEWED + " mulligan", ["en"]), "en")
    assert results.dropped_parts and results.work.terms == MAX_TERMS
    hits = [hit for group in results.groups for hit in group.hits]
    assert hits and all(hit.language == "en" and "<mark>mulligan" in hit.snippet.casefold() for hit in hits)
    assert {len(hit.missing) for hit in hits} == {MAX_TERMS - 1}  # the phrase's first parts, each named missing


def test_a_query_of_many_words_and_long_phrases_is_bounded_too(warm):
    words = " ".join(["eight cards in opening hand", REVIEWED, "手札が多すぎる" * 8, "scried two", "先手抓牌" * 10])
    results, peak = traced(Query.parse(words * 3), "en")
    assert peak <= PEAK and results.total
    assert_within_budget(results)


def test_the_groups_of_words_are_made_only_as_they_are_tried():
    """40 words, each found, never all together: the groups of several words come one level at a time, largest first,
    MAX_TRIES of them in all, then each word alone; never the 2^40 groups of 40 words."""
    terms = expand([f"w{at}" for at in range(40)])
    holding = {
        term.text: frozenset({at, 1000 + at % 3}) for at, term in enumerate(terms)
    }  # its own entry, a shared one
    tracemalloc.start()
    levels = tries(terms, holding)
    tried = list(islice(levels, 100))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    *groups, alone = tried
    assert [len(group) for level in groups for group in level.groups] == [39] * MAX_TRIES
    assert [len(group) for group in alone.groups] == [1] * 40 and alone.ids == frozenset().union(*holding.values())
    assert peak < 1_000_000


# Fuzzing long input: unspaced Chinese and Japanese, and CJK mixed with words, up to and past the longest query.
CHINESE = "牌张暗手戏信南记那展非发违败公规触黑忘亲结警但开先抓局额外看调度的了在是親調額張開發"
JAPANESE = "手札公開枚取上闇腹心先攻第誘発忘対戦相手がをにはのでともしたカードライブラリーマリガン"
UNSPACED = st.one_of(
    st.text(alphabet=CHINESE, min_size=20, max_size=250),
    st.text(alphabet=JAPANESE, min_size=20, max_size=250),
    st.text(alphabet=CHINESE + JAPANESE + "ab12·。、!?「」", min_size=20, max_size=250),
)
MIXED = st.lists(st.one_of(UNSPACED, PIECES), min_size=1, max_size=3 * MAX_TERMS).map(" ".join)


@settings(max_examples=80, deadline=None, suppress_health_check=NO_FIXTURE_RESET)
@given(q=st.one_of(UNSPACED, MIXED), reader=st.sampled_from(["en", "zh-hans", "ja"]))
def test_no_long_query_makes_a_search_exceed_its_budget(warm, q, reader):
    results, peak = traced(Query.parse(q), reader)
    assert peak <= PEAK, (q, peak)
    assert_within_budget(results)
    assert results.shown == min(results.total, PAGE_SIZE)
