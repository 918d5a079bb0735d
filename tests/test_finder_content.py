"""content/finder.toml: loaded, exported and checked with the rest of content/; a malformed graph changes nothing."""

import shutil
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from ipgsite.editing.models import Change, State, Status
from ipgsite.finder.models import Outcome, Question


@pytest.fixture
def content(tmp_path):
    copy = tmp_path / "content"
    shutil.copytree(settings.CONTENT_DIR, copy)
    return copy


def finder_snapshot():
    questions = Question.objects.order_by("key").values_list(
        "key", "order", "choices", "cites", "text_en", "text_zh_hans", "text_ja", "answers_en", "answers_ja", "revision"
    )
    outcomes = Outcome.objects.order_by("key").values_list("key", "section__number", "cites")
    return list(questions), list(outcomes), Change.objects.count(), Status.objects.count()


def replace(path, old, new, count=1):
    text = path.read_text()
    assert text.count(old) >= count, old
    path.write_text(text.replace(old, new, count))


# Each malformed graph: the edit, the node the error names, and the reason it gives.
MALFORMED = {
    "cycle": (
        ('key = "hidden-set"', 'next = "hidden-card-error"'),
        ('next = "hidden-card-error"\n', 'next = "public-information"\n'),
        "public-information",
        "cycle: public-information → acknowledged → hidden-set → public-information",
    ),
    "dead end": (
        None,
        ('next = "looking-at-extra-cards"', 'next = "nowhere-yet"'),
        "seen-not-added",
        "dead end: answer 'seen-only' leads to 'nowhere-yet', which is no node",
    ),
    "unknown citation": (
        None,
        ('cites = ["2.3#definition-2"]\nen = "Did a', 'cites = ["2.3#definition-9"]\nen = "Did a'),
        "seen-not-added",
        "cites 2.3#definition-9, but section 2.3 has no paragraph 'definition-9'",
    ),
    "citation of a section that does not exist": (
        None,
        ('section = "2.2"\ncites = ["2.3#definition-2"]', 'section = "2.2"\ncites = ["9.9#definition-2"]'),
        "looking-at-extra-cards",
        "cites 9.9#definition-2, but there is no section 9.9",
    ),
    "duplicate node": (
        None,
        ('key = "acknowledged"', 'key = "trigger"'),
        "trigger",
        "duplicate node (first defined at line",
    ),
    "unreachable node": (
        None,
        ('next = "game-rule-violation-public-zone"', 'next = "game-rule-violation-public"'),
        "game-rule-violation-public-zone",
        "unreachable from the first question 'when'",
    ),
    "a language neither written nor marked missing": (
        None,
        ('ja = "その誤りは、誘発型能力か、英雄譚の伝承カウンターに関わるものですか?"\n', ""),
        "trigger",
        "no ja wording for the question or an answer, and not marked missing",
    ),
    "an outcome that is no section": (
        None,
        ('section = "2.4"', 'section = "2.9"'),
        "mulligan-procedure-error",
        "leads to section 2.9, which does not exist",
    ),
}


def break_graph(content, case):
    anchor, (old, new), _node, _reason = MALFORMED[case]
    path = content / "finder.toml"
    if anchor:  # the edit applies after this point of the file only
        text = path.read_text()
        start = text.index(anchor[0])
        at = text.index(anchor[1], start)
        path.write_text(text[:at] + text[at:].replace(old, new, 1))
    else:
        replace(path, old, new)
    return path


@pytest.mark.parametrize("case", list(MALFORMED))
def test_a_malformed_graph_is_refused_by_loadcontent_naming_file_node_and_reason(ipg, content, case):
    path = break_graph(content, case)
    _anchor, _edit, node, reason = MALFORMED[case]
    before = finder_snapshot()
    with pytest.raises(CommandError) as refused:
        call_command("loadcontent", str(content), stdout=StringIO())
    message = str(refused.value)
    assert message.startswith("Nothing was loaded.")
    assert str(path) in message and f"node {node!r}" in message and reason in message, message
    assert finder_snapshot() == before


@pytest.mark.parametrize("case", list(MALFORMED))
def test_a_malformed_graph_is_refused_by_checkcontent_naming_file_node_and_reason(ipg, content, case):
    path = break_graph(content, case)
    _anchor, _edit, node, reason = MALFORMED[case]
    before = finder_snapshot()
    err = StringIO()
    with pytest.raises(CommandError):
        call_command("checkcontent", str(content), stdout=StringIO(), stderr=err)
    line = err.getvalue()
    assert str(path) in line and f"node {node!r}" in line and reason in line, line
    assert finder_snapshot() == before


def test_the_error_points_at_the_nodes_line(ipg, content):
    path = break_graph(content, "duplicate node")
    with pytest.raises(CommandError) as refused:
        call_command("loadcontent", str(content), stdout=StringIO())
    line = int(str(refused.value).split(f"{path}:")[1].split(":")[0])
    lines = path.read_text().splitlines()
    assert lines[line - 1] == 'key = "trigger"' and lines[line - 2] == "[[questions]]"
    assert lines.index('key = "trigger"') < line - 1  # the second one, not the first


def test_the_same_graph_checks_and_loads_clean(ipg, content):
    """The reverse direction: the unbroken copy is accepted by both commands and changes nothing."""
    before = finder_snapshot()
    out = StringIO()
    call_command("checkcontent", str(content), stdout=out)
    assert "finder: 8 questions, 13 outcomes, 14 worked examples, 3 cases" in out.getvalue()
    out = StringIO()
    call_command("loadcontent", str(content), stdout=out)
    assert (
        "the finder's 8 questions, 13 outcomes, 14 worked examples and 3 cases: 0 created, 0 updated, 0 deleted"
        in out.getvalue()
    )
    assert finder_snapshot() == before


def test_a_language_marked_missing_is_accepted_and_exported_as_missing(ipg, content, tmp_path):
    path = content / "finder.toml"
    replace(path, 'ja = "その誤りは、誘発型能力か、英雄譚の伝承カウンターに関わるものですか?"\n', 'missing = ["ja"]\n')
    call_command("loadcontent", str(content), stdout=StringIO())
    trigger = Question.objects.get(key="trigger")
    assert trigger.text_in("ja") == "" and all(trigger.answers_in("ja"))
    assert Status.objects.get(question=trigger, language="ja").state == State.MISSING
    out = tmp_path / "out"
    call_command("exportcontent", str(out), stdout=StringIO())
    assert (out / "finder.toml").read_bytes() == path.read_bytes()


@pytest.mark.database  # the graph is stored as JSON (jsonb on PostgreSQL)
def test_export_writes_the_graph_back_byte_for_byte(ipg, tmp_path):
    out = tmp_path / "out"
    call_command("exportcontent", str(out), stdout=StringIO())
    assert (out / "finder.toml").read_bytes() == (settings.CONTENT_DIR / "finder.toml").read_bytes()


def test_an_edited_question_in_the_file_updates_that_question_only_with_history(ipg, content):
    replace(
        content / "finder.toml",
        'en = "Does the error involve a triggered ability, or a Saga\'s lore counter?"',
        'en = "Is a trigger involved?"',
    )
    before = {q.key: q.revision for q in Question.objects.all()}
    out = StringIO()
    call_command("loadcontent", str(content), stdout=out)
    assert "3 cases: 0 created, 1 updated, 0 deleted" in out.getvalue()
    after = {q.key: q.revision for q in Question.objects.all()}
    assert [key for key in after if after[key] != before[key]] == ["trigger"]
    change = Change.objects.of(Question.objects.get(key="trigger")).first()
    assert (change.before, change.after, change.field, change.user) == (
        "Does the error involve a triggered ability, or a Saga's lore counter?",
        "Is a trigger involved?",
        "text",
        None,
    )
    # the English changed: the translations now follow an older English
    states = dict(Status.objects.filter(question__key="trigger").values_list("language", "state"))
    assert states == {"en": 2, "zh-hans": 1, "ja": 1}


def test_a_question_removed_from_the_file_is_removed_with_its_statuses(ipg, content):
    path = content / "finder.toml"
    text = path.read_text()
    # the scry question goes; the pre-game answer leads straight to the Mulligan Procedure Error
    start = text.index('[[questions]]\nkey = "scry-after-mulligan"')
    end = text.index('[[questions]]\nkey = "trigger"')
    text = text[:start] + text[end:]
    text = text.replace('next = "scry-after-mulligan"', 'next = "mulligan-procedure-error"')
    text = text.replace('answers = ["pre-game", "other-error"]', 'answers = ["pre-game"]')  # the worked examples too
    text = text.replace('answers = ["pre-game", "trivial"]', 'answers = ["pre-game"]')  # and the cases
    for outcome in ("hidden-card-error-after-mulligan", "not-an-infraction-trivial"):
        start = text.index(f'[[outcomes]]\nkey = "{outcome}"')
        text = text[:start] + text[text.index("\n\n", start) + 2 :]
    path.write_text(text)
    call_command("loadcontent", str(content), stdout=StringIO())
    assert not Question.objects.filter(key="scry-after-mulligan").exists()
    assert not Status.objects.filter(question__key="scry-after-mulligan").exists()
    assert Question.objects.count() == 7 and Outcome.objects.count() == 11
