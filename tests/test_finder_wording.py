"""The finder's questions, answers and cases are the site's own words: none repeats a run of an IPG sentence, and the
Japanese is in one register."""

import re
from difflib import SequenceMatcher

import pytest

from ipgsite.finder.models import Case, Question
from ipgsite.ipg import languages
from ipgsite.ipg.models import Paragraph

# The longest run of characters a wording may share with a paragraph in its language: room for a term ("pre-game
# procedures", "対戦相手がコントロールする"), none for a clause.
LONGEST = {"en": 24, "zh-hans": 15, "ja": 15}


def longest_shared_run(text, paragraphs):
    best = (0, "", "")
    for cite, other in paragraphs:
        match = SequenceMatcher(None, text, other, autojunk=False).find_longest_match(0, len(text), 0, len(other))
        best = max(best, (match.size, text[match.a : match.a + match.size], cite))
    return best


@pytest.mark.parametrize("code", languages.CODES)
def test_no_question_or_answer_repeats_an_ipg_sentence(ipg, code):
    paragraphs = [
        (f"{p.section.number}#{p.key}", text)
        for p in Paragraph.objects.select_related("section")
        if (text := languages.translated(p, "text", code))
    ]
    assert paragraphs
    for question in Question.objects.all():
        wordings = {question.key: question.text_in(code)}
        wordings.update(
            {
                f"{question.key}/{c['key']}": label
                for c, label in zip(question.choices, question.answers_in(code), strict=True)
            }
        )
        for name, text in wordings.items():
            size, run, cite = longest_shared_run(text, paragraphs)
            assert size <= LONGEST[code], f"{name} ({code}) repeats {cite}: {run!r}"


def test_a_wording_that_copies_a_clause_is_caught(ipg):
    """The near miss's counterpart: the check finds a clause lifted from 2.3 definition-1."""
    paragraphs = [("2.3#definition-1", Paragraph.objects.get(section__number="2.3", key="definition-1").text_en)]
    copied = "Was the error one that cannot be corrected by only publicly available information?"
    assert longest_shared_run(copied, paragraphs)[0] > LONGEST["en"]
    own = "Could both players see what went wrong, and put it right from what is on the table and in plain view?"
    assert longest_shared_run(own, paragraphs)[0] <= LONGEST["en"]


# Japanese sentences of the site's own wording end in the polite form (です・ます); "はい", "いいえ" and noun phrases are
# labels. A clause ends before "。", ":", "?" or at the end; a parenthesis is read as its own clause.
POLITE = ("です", "ます", "ません", "ました", "でした", "ですか", "ますか", "ませんか", "ましたか")
PLAIN = re.compile(r"(?:[たるいだ]|ない|である)$")


def plain_clauses(text):
    """The clauses of a Japanese wording that end in the plain form."""
    pieces = re.split(r"[。::??()()]", text)
    return [
        p
        for p in (p.strip() for p in pieces)
        if p and p not in ("はい", "いいえ") and PLAIN.search(p) and not p.endswith(POLITE)
    ]


def wordings(code):
    for question in Question.objects.all():
        yield question.key, question.text_in(code)
        for choice, label in zip(question.choices, question.answers_in(code), strict=True):
            yield f"{question.key}/{choice['key']}", label
    for case in Case.objects.all():
        yield f"case {case.key}", case.text_in(code)


def test_the_japanese_wording_is_in_the_polite_form_throughout(ipg):
    """F5: "いいえ、どちらも関係しない" stood beside "はい、ゲーム開始前です"."""
    plain = {name: clauses for name, text in wordings("ja") if (clauses := plain_clauses(text))}
    assert plain == {}


def test_a_plain_ending_is_caught_and_a_polite_one_is_not():
    assert plain_clauses("いいえ、どちらも関係しない") == ["いいえ、どちらも関係しない"]
    assert plain_clauses("はい:見えただけ") == []  # a label, not a sentence
    assert plain_clauses("(例えば、先攻のプレイヤーが、飛ばすはずのドローをした)") == [
        "例えば、先攻のプレイヤーが、飛ばすはずのドローをした"
    ]
    assert plain_clauses("いいえ、どちらも関係しません") == []
    assert plain_clauses("その誤りはいつ起き、いつ気付かれましたか?") == []


@pytest.mark.parametrize("code", languages.CODES)
def test_no_case_repeats_an_ipg_sentence(ipg, code):
    paragraphs = [
        (f"{p.section.number}#{p.key}", text)
        for p in Paragraph.objects.select_related("section")
        if (text := languages.translated(p, "text", code))
    ]
    for case in Case.objects.all():
        size, run, cite = longest_shared_run(case.text_in(code), paragraphs)
        assert size <= LONGEST[code], f"case {case.key} ({code}) repeats {cite}: {run!r}"
