"""Precision and recall of an import's proposal against content/, the ground truth."""

import difflib
import re
import tomllib
from collections import Counter

from people import CONTENT, SEEDS

# The seeds: which section each holds, and the languages of its text.
SEED_SECTIONS = {"000": "2.3", "001": "2.3", "002": "2.4", "003": "2.3", "004": "2.1"}


def seed(prefix):
    return next(SEEDS.glob(f"{prefix}_*.txt")).read_text(encoding="utf-8")


def squeeze(text):
    return re.sub(r"\s+", "", text)


def truth(number, codes):
    """content/'s paragraphs and notes of a section in `codes`: (key, language, text) and (paragraph, language,
    text) counters."""
    data = tomllib.loads((CONTENT / "sections" / f"{number}.toml").read_text(encoding="utf-8"))
    paragraphs = Counter(
        (p["key"], code, squeeze(p[code])) for p in data.get("paragraphs", []) for code in codes if p.get(code)
    )
    notes = Counter(
        (n["paragraph"], n["language"], squeeze(n[n["language"]]))
        for n in data.get("notes", [])
        if n["language"] in codes
    )
    return paragraphs, notes


def alike(a, b):
    """The same text, but for spacing and the few words where a seed's release differs from content/'s (seed 003's
    "contain" for "contains", its "–" for " — "): a paragraph in the right place, shown as a change."""
    return a == b or difflib.SequenceMatcher(None, a, b, autojunk=False).ratio() >= 0.95


def measured(proposed, expected):
    """(precision, recall) of proposed (key, language, text) items against the expected ones: an item is right where
    the expected item of its key and language has alike text. (1, 1) when both are empty."""
    expected_texts = {}
    for key, code, text in expected.elements():
        expected_texts.setdefault((key, code), []).append(text)
    right = 0
    for key, code, text in proposed.elements():
        candidates = expected_texts.get((key, code), [])
        match = next((t for t in candidates if alike(text, t)), None)
        if match is not None:
            candidates.remove(match)
            right += 1
    precision = right / sum(proposed.values()) if proposed else float(not expected)
    recall = right / sum(expected.values()) if expected else float(not proposed)
    return precision, recall


def scores(section_json, codes):
    """Paragraph and note precision/recall of one section of `importtext --json` against content/."""
    paragraphs, notes = truth(section_json["number"], codes)
    mine = Counter((p["key"], p["language"], squeeze(p["text"])) for p in section_json["paragraphs"])
    my_notes = Counter((n["paragraph"], n["language"], squeeze(n["text"])) for n in section_json["notes"])
    return measured(mine, paragraphs), measured(my_notes, notes)


def languages_of(prefix):
    return {"000": ["en", "zh-hans"], "001": ["ja"], "002": ["en", "zh-hans"], "003": ["en"], "004": ["ja"]}[prefix]


def crlf(text):
    return text.replace("\n", "\r\n")


def doubled_blank_lines(text):
    return re.sub(r"\n(\s*\n)+", lambda m: "\n" + "\n" * (2 * m.group(0).count("\n") - 1), text)


def without_blank_lines(text):
    return re.sub(r"\n\s*\n+", "\n", text)


PAGE_TEXT = "ホーム | 目次 | 検索\nIPG Home | Contents\n2024.09 更新 Updated for Duskmourn\n\n"


def after_page_text(text):
    return PAGE_TEXT + text


# The corpus of documents translators hold (tests/fixtures/documents/, made by its make.py from the seeds).

DOCUMENTS = SEEDS.parent / "documents"


def manifest():
    import json

    return json.loads((DOCUMENTS / "manifest.json").read_text(encoding="utf-8"))


def wide(text):
    """Text as the corpus compares it: width and whitespace aside."""
    import unicodedata

    return squeeze(unicodedata.normalize("NFKC", text))


def proposed_json(path, *arguments):
    """`importtext PATH --json` as data: (sections, problem or "")."""
    import json
    from io import StringIO

    from django.core.management import call_command
    from django.core.management.base import CommandError

    out = StringIO()
    try:
        call_command("importtext", str(path), "--json", *arguments, stdout=out)
    except CommandError as error:
        return [], str(error)
    return json.loads(out.getvalue())["sections"], ""


def items_of(sections):
    """Paragraph items (section, key, language, text) and note items, width and whitespace aside."""
    paragraphs = Counter(
        (section["number"], p["key"], p["language"], wide(p["text"]))
        for section in sections
        for p in section["paragraphs"]
    )
    notes = Counter(
        (section["number"], n["paragraph"], n["language"], wide(n["text"]))
        for section in sections
        for n in section["notes"]
    )
    return paragraphs, notes


def clean_truth(prefixes):
    """What the clean seeds give, each imported as it is with its section named."""
    paragraphs, notes = Counter(), Counter()
    for prefix in prefixes:
        path = next(SEEDS.glob(f"{prefix}_*.txt"))
        sections, problem = proposed_json(path, "--section", SEED_SECTIONS[prefix])
        assert not problem, problem
        found = items_of(sections)
        paragraphs += found[0]
        notes += found[1]
    return paragraphs, notes


def exact(proposed, expected):
    """(precision, recall) where an item counts only if it equals an expected one."""
    right = sum((proposed & expected).values())
    precision = right / sum(proposed.values()) if proposed else float(not expected)
    recall = right / sum(expected.values()) if expected else float(not proposed)
    return precision, recall


def corpus_scores(entry):
    """For one document of the corpus: paragraph (P, R), note (P, R), the problem if it was refused, and the count
    of texts proposed without confidence."""
    arguments = ["--section", entry["section"]] if entry["section"] else []
    sections, problem = proposed_json(DOCUMENTS / entry["file"], *arguments)
    paragraphs, notes = items_of(sections)
    truth_paragraphs, truth_notes = clean_truth(entry["seeds"])
    uncertain = sum(len(section["uncertain"]) for section in sections)
    return exact(paragraphs, truth_paragraphs), exact(notes, truth_notes), problem, uncertain
