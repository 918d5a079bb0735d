"""Every sentence of the seeds is in content/, once, in its language, aligned with its counterparts."""

import re
from pathlib import Path

import pytest

from ipgsite.ipg.models import Note, Paragraph

SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"
pytestmark = pytest.mark.skipif(not SEEDS.is_dir(), reason=f"the seed texts are not at {SEEDS}")

# Where two seeds give the same English with small differences, content/ keeps the correct English.
ENGLISH_READINGS = {
    "Game Play Error —Looking at Extra Cards": "Game Play Error — Looking at Extra Cards",
    "Game Play Error–Looking at Extra Cards": "Game Play Error — Looking at Extra Cards",
    "the set of cards that contain the excess": "the set of cards that contains the excess",
    "previously unknown-cards": "previously-unknown cards",
}
HEADINGS = {"定义", "范例", "原则", "进一步的修正", "定義:", "例:", "理念:", "追加措置:", "Definition", "Examples",
            "Philosophy", "Additional Remedy", "Upgrade"}
LABEL = re.compile(r"^\s*(?:•\s*)?(?:\(([A-F])\)|([A-F])\.)\s*")
INLINE_HEADING = re.compile(r"^(?:升级|格上げ)\s*[:：]\s*")


def seed(name):
    return next(SEEDS.glob(f"{name}_*.txt")).read_text(encoding="utf-8")


def clean(line):
    line = INLINE_HEADING.sub("", LABEL.sub("", line.strip()))
    for variant, reading in ENGLISH_READINGS.items():
        line = line.replace(variant, reading)
    return re.sub(r"\s+", " ", line).strip()


def sentences(text):
    """Sentences of English or CJK text: split after 。 or after . ? ! followed by a space."""
    parts = re.split(r"(?<=。)|(?<=[.?!])\s+(?=[A-Z“‘\"(])", text)
    return [p.strip() for p in parts if p and p.strip() and len(p.strip()) > 1]


def columns(code):
    suffix = code.replace("-", "_")
    texts = [(p.section.number, p.key, "paragraph", getattr(p, f"text_{suffix}") or "")
             for p in Paragraph.objects.select_related("section")]
    texts += [(n.paragraph.section.number, n.paragraph.key, "note", getattr(n, f"body_{suffix}") or "")
              for n in Note.objects.select_related("paragraph__section")]
    return [(number, key, kind, re.sub(r"\s+", " ", text)) for number, key, kind, text in texts]


def places(sentence, code, number):
    return [(key, kind) for n, key, kind, text in columns(code) if n == number and sentence in text]


def assert_once(sentence, code, number, kind=None):
    found = places(sentence, code, number)
    assert len(found) == 1, f"{number} {code}: {sentence!r} found {len(found)} times: {found}"
    if kind:
        assert found[0][1] == kind, f"{sentence!r} is a {found[0][1]}, expected a {kind}"
    return found[0][0]


def cjk(line):
    return re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", line) is not None


def test_hidden_card_error_english_and_chinese_are_aligned_pair_by_pair(ipg):
    text = seed("000").split("DEFINITION 定义", 1)[1]
    lines = [clean(l) for l in text.splitlines() if l.strip() and l.strip() not in
             {"EXAMPLES 范例", "PHILOSOPHY 原则", "ADDITIONAL REMEDY 进一步的修正"}]
    pairs = list(zip(lines[::2], lines[1::2]))
    assert len(pairs) == 19
    for english, chinese in pairs:
        assert not cjk(english) and cjk(chinese)
        keys = {assert_once(s, "en", "2.3", "paragraph") for s in sentences(english)}
        keys |= {assert_once(s, "zh-hans", "2.3", "paragraph") for s in sentences(chinese)}
        assert len(keys) == 1, f"{english[:40]!r} and its Chinese are split across {keys}"


def test_plain_english_hidden_card_error_is_all_there(ipg):
    text = seed("003")
    body = text.split("\nDefinition\n", 1)[1]
    paragraphs = re.split(r"\n\s*\n", body)
    count = 0
    for paragraph in paragraphs:
        for line in paragraph.split("\n  • "):
            line = clean(" ".join(line.split()))
            if not line or line in HEADINGS:
                continue
            for sentence in sentences(line):
                assert_once(sentence, "en", "2.3", "paragraph")
                count += 1
    assert count == 32


def test_mulligan_procedure_error_english_with_the_chinese_it_has(ipg):
    text = seed("002").split("Warning 警告", 1)[1]
    lines = [clean(l) for l in text.splitlines() if l.strip()]
    untranslated = 0
    for index, line in enumerate(lines):
        if cjk(line):
            continue
        keys = {assert_once(s, "en", "2.4", "paragraph") for s in sentences(line)}
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if cjk(following):
            keys |= {assert_once(s, "zh-hans", "2.4", "paragraph") for s in sentences(following)}
        else:
            (key,) = keys
            assert not Paragraph.objects.get(section__number="2.4", key=key).text_zh_hans
            untranslated += 1
        assert len(keys) == 1
    assert untranslated == 6


# The Japanese annotated edition: official paragraphs (plain form) and the commentary on them.
ANNOTATED_OFFICIAL = {
    "definition-1": [3, 5, 8], "definition-2": [10], "example-a": [14], "example-b": [15], "example-c": [16],
    "example-d": [17], "example-e": [18], "example-f": [19], "philosophy-1": [24], "philosophy-2": [26, 28],
    "philosophy-3": [30], "philosophy-4": [32], "philosophy-5": [34], "remedy-1": [37], "remedy-2": [40],
    "remedy-3": [42], "remedy-4": [44], "remedy-5": [47, 48], "upgrade-1": [51],
}
ANNOTATED_COMMENTARY = {
    "definition-1": [4, 6, 7, 9], "definition-2": [11, 12], "example-c": [21], "example-f": [20, 22],
    "philosophy-1": [25], "philosophy-2": [27, 29], "philosophy-3": [31], "philosophy-4": [33],
    "philosophy-5": [35], "remedy-1": [38, 39], "remedy-2": [41], "remedy-3": [43], "remedy-4": [45, 46],
    "remedy-5": [49, 50], "upgrade-1": [52, 53],
}


def test_japanese_annotated_edition_official_text_and_commentary(ipg):
    lines = seed("001").splitlines()
    structural = {1, 2, 13, 23, 36}  # the penalty line and the part headings
    covered = set(structural)
    for expected, numbers in ANNOTATED_OFFICIAL.items():
        for number in numbers:
            for sentence in sentences(clean(lines[number - 1])):
                assert assert_once(sentence, "ja", "2.3", "paragraph") == expected
            covered.add(number)
    for expected, numbers in ANNOTATED_COMMENTARY.items():
        for number in numbers:
            for sentence in sentences(clean(lines[number - 1])):
                assert assert_once(sentence, "ja", "2.3", "note") == expected
            covered.add(number)
    assert covered == set(range(1, len(lines) + 1))


def test_official_japanese_is_plain_form_and_commentary_polite(ipg):
    for paragraph in Paragraph.objects.filter(section__number="2.3"):
        assert not re.search(r"(です|ます|しょう)。", paragraph.text_ja), paragraph.key
    for note in Note.objects.filter(paragraph__section__number="2.3"):
        assert re.search(r"(です|ます|ません|しょう|ください)。", note.body_ja), note.body_ja[:30]


def test_missed_trigger_japanese_with_its_commentary_box(ipg):
    lines = [l.strip() for l in seed("004").splitlines()[4:] if l.strip()]
    notes = 0
    for line in lines:
        if line in HEADINGS:
            continue
        if line.startswith("alert"):
            body = line.removeprefix("alert").removesuffix("[/alert]")
            for sentence in sentences(body):
                assert assert_once(sentence, "ja", "2.1", "note") == "example-a"
            notes += 1
            continue
        for sentence in sentences(clean(line.lstrip("•").strip())):
            assert_once(sentence, "ja", "2.1", "paragraph")
    assert notes == 1
    assert not Paragraph.objects.filter(section__number="2.1").exclude(text_en__isnull=True).exclude(text_en="").exists()


def test_seed_navigation_and_chrome_are_not_content(ipg):
    chrome = ["返回IPG目录", "目录", "2023.12 更新", "万智牌完整规则", "套牌检查表", "Penalty 处罚", "懲罰:", "懲罰 –", "再调度失误 |"]
    for code in ("en", "zh-hans", "ja"):
        for _number, key, _kind, text in columns(code):
            for piece in chrome:
                assert piece not in text, f"{key} holds site chrome {piece!r}"
