"""An annotated edition's commentary told from its official text, and placed as notes on the right paragraph."""

import pytest

from ipgsite.importing.commentary import classify, is_commentary
from ipgsite.importing.units import Unit


def ja(text, **fields):
    return Unit(texts={"ja": text}, **fields)


@pytest.mark.parametrize(
    "text",
    [
        "この文は、対戦相手が関わりを持つふたつの部分を持ちます。",
        "根本原因を確認しましょう。私達は穴にはまっていますが、それは示しているわけではないからです。",
        "例(C)は、プレイヤーが忘れたケースがこれに当たります。",
    ],
)
def test_the_polite_form_is_commentary(text):
    assert is_commentary(ja(text))


@pytest.mark.parametrize(
    "text",
    [
        "プレイヤーが、公開されている情報だけからは修正できない誤りを犯した。",
        "例えばライブラリーの一番上にあった時に公開されたカードに関する情報は、考慮に入れてもよい。",
        "その場合、違反は元になった問題に基づいて処理される。",
    ],
)
def test_the_plain_form_is_official_text_even_opening_with_例えば(text):
    assert not is_commentary(ja(text))


def test_a_box_is_commentary_whatever_its_form_and_english_never_is():
    assert is_commentary(ja("この能力が最初に重要となる。", box=True))
    assert not is_commentary(Unit(texts={"en": "Thank you."}))


def test_a_run_of_commentary_is_one_note_on_the_paragraph_before_but_an_example_letter_opens_its_own():
    first, second = ja("最初の文である。"), ja("次の文である。")
    units = [
        ja("前置きです。"),
        first,
        ja("解説です。"),
        ja("続きの解説です。"),
        second,
        ja("この例のいくつかは似ています。"),
        ja("例(C)は、別の例です。"),
    ]
    official, orphans = classify(units)
    assert official == [first, second] and [u.texts["ja"] for u in orphans] == ["前置きです。"]
    assert [n["texts"]["ja"] for n in first.notes] == ["解説です。\n\n続きの解説です。"]
    assert [(n["example"], n["texts"]["ja"]) for n in second.notes] == [
        ("", "この例のいくつかは似ています。"),
        ("c", "例(C)は、別の例です。"),
    ]
