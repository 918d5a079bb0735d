"""The changes pages' diff: words in English, characters in Chinese and Japanese, everything escaped."""

import html
import re

from hypothesis import given
from hypothesis import strategies as st

from ipgsite.releases.diffing import BLOCK_LIMIT, diff_html, tokens


def side(diff, keep):
    """The old (keep='del') or new (keep='ins') text back from a diff."""
    drop = "ins" if keep == "del" else "del"
    text = re.sub(rf"<{drop}>.*?</{drop}>", "", str(diff), flags=re.S)
    return html.unescape(re.sub(r"</?(?:ins|del)>", "", text))


def test_english_is_diffed_word_by_word_and_a_changed_phrase_reads_as_one():
    diff = diff_html("A player commits an error in the game.", "A player makes a mistake in the game.")
    assert diff == "A player <del>commits an error</del><ins>makes a mistake</ins> in the game."


def test_a_changed_word_is_marked_whole_not_its_letters():
    assert diff_html("the opponent acknowledges", "the opponent acknowledged") == (
        "the opponent <del>acknowledges</del><ins>acknowledged</ins>"
    )


def test_chinese_is_diffed_per_character():
    diff = diff_html(
        "牌手在游戏中发生失误,但此类失误仅凭可公开获知的信息无法修正。",
        "选手在游戏中发生失误,但此类失误仅凭可公开获知的信息无法修正。",
    )
    assert diff == "<del>牌</del><ins>选</ins>手在游戏中发生失误,但此类失误仅凭可公开获知的信息无法修正。"


def test_japanese_is_diffed_per_character_and_keeps_latin_words_whole():
    diff = diff_html(
        "修正できない誤りを犯した。《闇の腹心/Dark Confidant》",
        "修正できない間違いを犯した。《闇の腹心/Dark Confidants》",
    )
    assert (
        diff
        == "修正できない<del>誤り</del><ins>間違い</ins>を犯した。《闇の腹心/Dark <del>Confidant</del><ins>Confidants</ins>》"
    )


def test_a_cjk_clause_is_not_one_token():
    # The rule the changes pages rely on: if CJK text were one token, one changed character would mark it all.
    assert tokens("非公開カード") == ["非", "公", "開", "カ", "ー", "ド"]
    assert "<del>非公開カード</del>" not in diff_html("非公開カード", "非公開カート")


def test_everything_is_escaped_in_and_around_the_changes():
    diff = diff_html('<script>alert("a")</script> & <b>old</b>', '<script>alert("b")</script> & <img src=x onerror=y>')
    assert "<script>" not in diff and "<b>" not in diff and "<img" not in diff
    assert "&lt;script&gt;" in diff
    assert set(re.findall(r"</?([a-z]+)", diff)) <= {"del", "ins"}


def test_texts_added_or_removed_whole():
    assert diff_html("", "New text.") == "<ins>New text.</ins>"
    assert diff_html("Old text.", "") == "<del>Old text.</del>"
    assert diff_html("Same.", "Same.") == "Same."


@given(st.text(max_size=60), st.text(max_size=60))
def test_a_diff_holds_both_texts_exactly(old, new):
    diff = diff_html(old, new)
    assert "".join(tokens(old)) == old
    assert side(diff, "del") == old
    assert side(diff, "ins") == new


# The cost is bounded: sentences are paired first, and a changed sentence too long to compare is replaced whole.

LONG = 500  # characters: 500 × 500 CJK tokens is exactly BLOCK_LIMIT


def test_in_a_long_text_only_the_changed_sentence_is_compared_and_marked():
    sentences = [f"テスト{n:04d}の文です。" for n in range(2000)]  # 24,000 characters, every sentence distinct
    old = "".join(sentences)
    new = old.replace("テスト1234の文です。", "テスト1234の文でした。")
    assert diff_html(old, new) == old.replace("テスト1234の文です。", "テスト1234の文で<del>す</del><ins>した</ins>。")


def test_a_changed_sentence_within_the_limit_is_compared_character_by_character():
    old = "あ" * (LONG - 1) + "。"
    new = "あ" * (LONG - 2) + "い。"
    assert len(tokens(old)) * len(tokens(new)) <= BLOCK_LIMIT
    assert diff_html(old, new) == "あ" * (LONG - 2) + "<del>あ</del><ins>い</ins>。"


def test_a_changed_sentence_beyond_the_limit_is_replaced_whole_and_its_neighbours_stay_unmarked():
    before, after = "前の文です。", "後の文です。"
    old = before + "あ" * LONG + "。" + after
    new = before + "あ" * (LONG - 1) + "い。" + after
    assert len(tokens("あ" * LONG + "。")) ** 2 > BLOCK_LIMIT
    assert diff_html(old, new) == f"{before}<del>{'あ' * LONG}。</del><ins>{'あ' * (LONG - 1)}い。</ins>{after}"
