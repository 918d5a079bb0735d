"""A section's lines read as units: headings with or without a colon, penalty lines, bullets, hard wraps."""

import pytest

from ipgsite.importing.documents import Document
from ipgsite.importing.units import heading, inline_heading, is_penalty_line, read


def units_of(text, cjk="auto"):
    return read(Document(number="2.1", lines=list(enumerate(text.split("\n"), 1))), cjk)


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
