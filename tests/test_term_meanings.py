"""A term mark says what the text says: a term never matches inside a longer word, nor inside a longer term, nor
inside a phrase where its name means something else (content/terms.toml `not_in`)."""

from ipgsite.terms.lookup import Matcher, TermForms, matcher
from pages import parse, term_key


def found(text, terms=None):
    """[(term key, words)] in the text, with the site's vocabulary or these terms."""
    finder = Matcher(terms) if terms is not None else matcher()
    return [(term.key, words) for _start, _end, words, term in finder.finditer(text)]


def marks_in(client, url, key):
    """The marks of a paragraph ("example-c") or of its notes ("example-f note 2") on a page: [(term, words)]."""
    root = parse(client.get(url).content.decode())
    key, _, note = key.partition(" note ")
    row = root.by_id(key)
    if note:
        siblings = [c for c in row.parent.children if not isinstance(c, str)]
        details = siblings[siblings.index(row) + 1]
        assert "notes" in details.classes
        row = details.find_all("aside", class_="note")[int(note) - 1]
    return [(term_key(a), a.text()) for a in row.find_all("a", class_="term")]


def term(key, names, variants=None, not_in=None):
    return TermForms(
        key=key, kind="game-term", names=names, variants=variants or {}, defined_at=None, not_in=not_in or {}
    )


# The two marks that said the opposite of the text, on the real pages.


def test_a_hidden_zone_in_japanese_is_no_public_zone(client, ipg):
    # "…非公開領域に加えるべきでないカード…" and "…確認される前に非公開領域に置かれた場合…": the hidden zone
    assert ("public-zone", "公開領域") not in marks_in(client, "/ja/ipg/2.3/", "example-f note 2")
    assert ("public-zone", "公開領域") not in marks_in(client, "/ja/ipg/2.3/", "remedy-4 note 1")
    # the near miss: "カードが公開領域に置かれていた場合" is the public zone
    assert ("public-zone", "公開領域") in marks_in(client, "/ja/ipg/2.3/", "philosophy-2")


def test_a_players_own_hand_is_not_the_games_hand(client, ipg):
    marks = marks_in(client, "/en/ipg/2.3/", "philosophy-5")  # "picks up three cards with one hand and then …"
    assert "hand" not in [key for key, _words in marks]
    assert ("collected-company", "Collected Company") in marks
    # the near miss: "… before it goes into their hand" is the game's hand
    assert ("hand", "hand") in marks_in(client, "/en/ipg/2.3/", "example-c")


# The rule, with the site's vocabulary: crafted text and its near misses, in each language.


def test_english_a_name_never_matches_inside_a_longer_word(ipg):
    for text in ["handle the cards", "beforehand", "a shorthand", "a hand-picked card", "redraws", "libraryX"]:
        assert found(text) == [], text
    assert found("into their hand.") == [("hand", "hand")]
    assert found("(the only card in hand)") == [("hand", "hand")]
    assert found("hands") == [("hand", "hands")]  # an inflection is no longer word
    assert found("a face-down card") == [("face-down", "face-down")]


def test_english_a_name_never_matches_inside_a_longer_term(ipg):
    assert found("a Mulligan Procedure Error") == [("mulligan-procedure-error", "Mulligan Procedure Error")]
    assert found("after taking a mulligan") == [("mulligan", "mulligan")]


def test_english_not_in_phrases(ipg):
    assert found("picks up three cards with one hand") == []
    assert found("picks up three cards With  One\nHand") == []  # any case, any run of spaces
    assert found("picks up three cards with one hand and puts them in hand") == [("hand", "hand")]
    assert found("with their hand") == [("hand", "hand")]
    assert found("the last drawn set of four") == []
    assert found("the excess card was drawn") == [("draw", "drawn")]


def test_chinese_a_name_never_matches_inside_a_longer_term(ipg):
    assert found("这属于再调度失误。") == [("mulligan-procedure-error", "再调度失误")]
    assert found("在再调度之后") == [("mulligan", "再调度")]
    assert found("游戏行动失误~额外抓牌") == [("hidden-card-error", "额外抓牌")]  # not 抓, draw


def test_chinese_not_in_phrases(ipg):
    assert found("则应对后抓起的这四张牌进行修正") == []
    assert found("之后抓了四张牌") == [("draw", "抓")]


def test_japanese_a_name_never_matches_inside_a_longer_term(ipg):
    assert found("〔ゲーム上の誤り ─ 誘発忘れ〕") == [("missed-trigger", "誘発忘れ")]
    assert found("誘発型能力") == [("trigger", "誘発")]
    assert found("非公開のカード群") == [("hidden-set", "非公開のカード群")]


def test_japanese_not_in_phrases(ipg):
    assert found("確認される前に非公開領域に置かれた") == []
    assert found("カードが公開領域に置かれていた") == [("public-zone", "公開領域")]
    assert found("非公開領域から公開領域へ") == [("public-zone", "公開領域")]  # only the second


# The rule itself, on terms made up for it.


def test_cjk_a_term_inside_another_terms_name_is_not_found():
    terms = [term("zone", {"ja": "領域"}), term("exile", {"ja": "追放領域"})]
    assert found("追放領域にある", terms) == [("exile", "追放領域")]
    assert found("その領域にある", terms) == [("zone", "領域")]


def test_not_in_excepts_only_its_own_term():
    terms = [
        term("hand", {"en": "hand"}, not_in={"en": ("with one hand",)}),
        term("one", {"en": "one"}),
    ]
    assert found("with one hand", terms) == [("one", "one")]
    assert found("with one, hand", terms) == [("one", "one"), ("hand", "hand")]
