"""A section's lines read as units: headings with or without a colon, penalty lines, bullets, hard wraps, labels
and commentary markers."""

import pytest

from ipgsite.documents import text
from ipgsite.importing.cleaning import clean
from ipgsite.importing.units import read
from ipgsite.importing.vocabulary import heading, inline_heading, is_penalty_line, label_of


def units_of(raw, cjk="auto"):
    return read(clean(text.read(raw)), cjk)


@pytest.mark.parametrize(
    "line, part",
    [
        ("定義:", "definition"),
        ("定義：", "definition"),
        ("例:", "example"),
        ("追加措置:", "additional-remedy"),
        ("DEFINITION 定义", "definition"),
        ("Additional Remedy", "additional-remedy"),
        ("理念", "philosophy"),
        # Near misses: text that starts like a heading.
        ("例(C)は、プレイヤーが", None),
        ("例えばライブラリーの一番上にあった時", None),
        ("Definitions matter.", None),
    ],
)
def test_headings(line, part):
    assert heading(line) == part


@pytest.mark.parametrize(
    "line", ["懲罰 – なし", "懲罰: – 【警告】", "Penalty 处罚", "Warning 警告", "【ゲームの敗北】"]
)
def test_penalty_lines(line):
    assert is_penalty_line(line)


@pytest.mark.parametrize("line", ["懲罰はなし、ただし", "Warning: do not do this.", "警告を与える。"])
def test_penalty_lines_near_misses(line):
    assert not is_penalty_line(line)


def test_inline_headings():
    assert inline_heading("格上げ: 変異能力を用いて") == ("upgrade", "変異能力を用いて")
    assert inline_heading("升级:如果曾以变身") == ("upgrade", "如果曾以变身")
    assert inline_heading("格上げされる場合:") == (None, "格上げされる場合:")


def test_japanese_lines_without_blank_lines_are_each_a_paragraph():
    found = units_of("定義:\n一つ目の文である。\n二つ目の文である。\n例:\n(A) プレイヤーが引いた。")
    assert [(u.part, u.label, u.texts) for u in found] == [
        ("definition", "", {"ja": "一つ目の文である。"}),
        ("definition", "", {"ja": "二つ目の文である。"}),
        ("example", "A", {"ja": "プレイヤーが引いた。"}),
    ]


def test_a_hard_wrapped_line_continues_its_paragraph():
    found = units_of(
        "Upgrade\nIf a face-down card is on the battlefield during\nthe game, the penalty is a Game Loss.\nNext."
    )
    assert [u.texts["en"] for u in found] == [
        "If a face-down card is on the battlefield during the game, the penalty is a Game Loss.",
        "Next.",
    ]


def test_bullets_and_boxes():
    found = units_of(
        "例:\n  • 一つ目である。\n•(括弧)二つ目である。\n(A) 例である。\nalert解説です。\n続きです。[/alert]"
    )
    assert [(u.bullet, u.box) for u in found] == [(True, False), (True, False), (False, False), (False, True)]
    assert found[1].texts == {"ja": "(括弧)二つ目である。"}
    assert found[3].texts == {"ja": "解説です。\n\n続きです。"}


def test_kana_anywhere_make_a_kanji_heading_japanese_and_chinese_stays_chinese():
    assert {code for u in units_of("追加措置:\n効果を即座に解決する。\n定義文") for code in u.texts} == {"ja"}
    assert {code for u in units_of("升级:如果曾以变身异能施放\n处罚为一盘负。") for code in u.texts} == {"zh-hans"}


@pytest.mark.parametrize(
    "line, label, rest",
    [
        ("A. A player draws.", "A", "A player draws."),
        ("(A) プレイヤーが引いた。", "A", "プレイヤーが引いた。"),
        ("（Ａ）プレイヤーが引いた。", "A", "プレイヤーが引いた。"),
        ("例(C) プレイヤーが引いた。", "C", "プレイヤーが引いた。"),
        ("例（Ｃ）プレイヤーが引いた。", "C", "プレイヤーが引いた。"),
        ("1. A player draws.", "1", "A player draws."),
        ("  • A. A player draws.", "A", "A player draws."),
        # Near misses: a paragraph about an example, a number in a sentence, a section number.
        ("例(C)は、プレイヤーが忘れた。", "", "例(C)は、プレイヤーが忘れた。"),
        ("2.3 Hidden Card Error", "", "2.3 Hidden Card Error"),
        ("A player draws.", "", "A player draws."),
    ],
)
def test_example_labels(line, label, rest):
    assert label_of(line) == (label, rest)


def test_labels_of_every_kind_are_keys_not_text():
    found = units_of("例:\n（Ａ）一つ目である。\n例(B) 二つ目である。\n3. 三つ目である。")
    assert [(u.label, u.texts["ja"]) for u in found] == [
        ("A", "一つ目である。"),
        ("B", "二つ目である。"),
        ("C", "三つ目である。"),
    ]


def test_a_list_number_outside_examples_is_not_text_nor_a_label():
    found = units_of("Philosophy\n1. First reason.\n2. Second reason.")
    assert [(u.label, u.part, u.texts["en"]) for u in found] == [
        ("", "philosophy", "First reason."),
        ("", "philosophy", "Second reason."),
    ]


def test_commentary_markers_mark_commentary_and_are_not_text():
    found = units_of("定義:\n\u3000公式の文である。\n【解説】この文は大事です。\n※例(C)は、別の話です。")
    assert [(u.marked, u.texts["ja"]) for u in found] == [
        (False, "公式の文である。"),
        (True, "この文は大事です。"),
        (True, "例(C)は、別の話です。"),
    ]
