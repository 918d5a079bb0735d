"""Where each unit of official text goes: one of the section's paragraph keys, with how sure the placing is.

A unit with English is matched to a paragraph sentence by sentence, so a paragraph split in two still lands on its
one key; its translation comes with it. Official text without English (an annotated edition) goes by its example
label, else it is aligned, part by part, with the English sentences of the section: each unit takes a run of
sentences of one paragraph, chosen by length, sentence count, bullets, numbers and card names in 《》. Where the
section has no English, units are aligned by part and order; where it has no paragraphs at all, each unit is a new
paragraph with a key made from its part.

A placing is sure (`Placement.sure`) when the English matches, the label names the example, the aligned run costs
little, or a part holds as many units as paragraphs; the rest is uncertain: proposed, never applied unasked.
"""

import difflib
import functools
import math
import re
import unicodedata
from dataclasses import dataclass, field, replace

from ipgsite.ipg import languages
from ipgsite.ipg.models import Part

from . import commentary
from .vocabulary import example_letter, glyph_key

SOURCE = languages.SOURCE
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z“‘\"'(])")
KEY_PREFIX = {Part.ADDITIONAL_REMEDY: "remedy", None: "text"}
NUMBER_WORDS = {
    word: str(number)
    for number, word in enumerate("zero one two three four five six seven eight nine ten eleven twelve".split())
}
SKIP_SENTENCE = 0.8  # an English sentence the translation does not have (it follows an older English)
UNPLACED = 2.5  # a unit that goes nowhere
LONGEST_RUN = 5  # sentences one unit may take
SURE_COST = 1.2  # an aligned run that costs more than this is uncertain
MATCHED = 0.5  # the share of a unit's English sentences a paragraph must hold


@dataclass
class Placement:
    """Where units go: {id(unit): key}; the ids placed with confidence; how the section was aligned."""

    keys: dict = field(default_factory=dict)
    sure: set = field(default_factory=set)
    by_order: bool = False  # the section has no English: aligned by part and order
    new_paragraphs: bool = False  # the section has no paragraphs: every unit a new one

    def put(self, unit, key, sure=True):
        self.keys[id(unit)] = key
        if sure:
            self.sure.add(id(unit))
        else:
            self.sure.discard(id(unit))


def place(official, paragraphs):
    """Place the official units on `paragraphs` (the section's, in order): the placement."""
    placement = Placement()
    if not paragraphs:
        placement.new_paragraphs = bool(official)
        for unit, key in _as_new_paragraphs(official):
            placement.put(unit, key)
        return placement
    _parts_from_groups(official, paragraphs)
    with_english = [unit for unit in official if SOURCE in unit.texts]
    place_english(with_english, paragraphs, placement)
    rest = [unit for unit in official if SOURCE not in unit.texts]
    has_english = any(p.text_in(SOURCE) for p in paragraphs)
    placement.by_order = bool(rest) and not has_english
    _place_translations(rest, paragraphs, placement, has_english)
    return placement


def split_joined(found, paragraphs):
    """Units, where a unit in one language whose sentences are, in runs, those of different stored paragraphs (in
    that language), or a stored paragraph's and commentary, is split into one unit per run, its notes going with the
    last: paragraphs a PDF's wrapping joined. A unit that matches no stored text is left whole."""
    theirs = {}  # language → [set of the paragraph's sentences]
    result = []
    for unit in found:
        code = unit.only_language
        if code is None or unit.label:
            result.append(unit)
            continue
        if code not in theirs:
            theirs[code] = [{glyph_key(s) for s in _sentences_in(code, p.text_in(code) or "")} for p in paragraphs]
        mine = _sentences_in(code, unit.texts[code])
        keys = [glyph_key(sentence) for sentence in mine]
        owners = [next((i for i, their in enumerate(theirs[code]) if key in their), None) for key in keys]
        runs = []
        for sentence, owner in zip(mine, owners, strict=True):
            if runs and runs[-1][0] == owner:
                runs[-1][1].append(sentence)
            else:
                runs.append((owner, [sentence]))
        # Sentences no stored paragraph has stay with their neighbours, unless they are commentary (polite).
        apart = [run for run in runs if run[0] is not None or commentary.politeness("".join(run[1])) >= 0.5]
        if len(runs) < 2 or len(apart) != len(runs) or not any(owner is not None for owner, _run in runs):
            result.append(unit)
            continue
        glue = " " if code == SOURCE else ""
        for position, (_owner, run) in enumerate(runs):
            last = position == len(runs) - 1
            result.append(replace(unit, texts={code: glue.join(run)}, notes=unit.notes if last else []))
    return result


def _sentences_in(code, text):
    return sentences(text) if code == SOURCE else commentary.sentences(text)


def place_english(found, paragraphs, placement):
    position = 0
    theirs = [[normal(s) for s in sentences(p.text_in(SOURCE))] for p in paragraphs]
    for unit in found:
        mine = [normal(s) for s in sentences(unit.texts[SOURCE])]
        scored = [(_score(mine, their), -abs(i - position), i) for i, their in enumerate(theirs)]
        best = max(scored, default=None)
        if best and best[0] >= MATCHED:
            placement.put(unit, paragraphs[best[2]].key)
            position = best[2]


def english_matches(found, paragraphs):
    """How many of the units' English paragraphs match one of `paragraphs`: how a text without a heading is
    recognised as a section's."""
    placement = Placement()
    place_english([unit for unit in found if SOURCE in unit.texts], paragraphs, placement)
    return len(placement.keys)


def _place_translations(found, paragraphs, placement, has_english):
    """Units without English: by example label, then part by part by the English sentences (or by order)."""
    taken = set(placement.keys.values())
    keys = {p.key for p in paragraphs}
    pending = []
    for unit in found:
        key = f"example-{example_letter(unit.label)}" if unit.label else ""
        if key in keys:
            placement.put(unit, key)
            taken.add(key)
        else:
            pending.append(unit)
    by_part = {}
    for unit in pending:
        by_part.setdefault(unit.part, []).append(unit)
    ratio = _length_ratio(pending, paragraphs) if has_english else 1.0
    for part, group in by_part.items():
        candidates = [p for p in paragraphs if (part is None or p.part == part) and p.key not in taken]
        if has_english and any(p.text_in(SOURCE) for p in candidates):
            chosen = _by_sentences(group, candidates, ratio)
        else:
            # Units beyond the part's paragraphs are unplaced; as many units as paragraphs is a sure pairing.
            pairs = list(zip(group, candidates, strict=False))
            chosen = [(unit, paragraph, len(group) == len(candidates)) for unit, paragraph in pairs]
        for unit, paragraph, sure in chosen:
            placement.put(unit, paragraph.key, sure)
            taken.add(paragraph.key)


def _length_ratio(found, paragraphs):
    parts = {unit.part for unit in found}
    english = sum(len(p.text_in(SOURCE)) for p in paragraphs if None in parts or p.part in parts)
    theirs = sum(len(_text(unit)) for unit in found)
    return min(max(theirs / english, 0.2), 2.0) if english and theirs else 0.5


def _text(unit):
    return next(iter(unit.texts.values()))


def _by_sentences(found, paragraphs, ratio):
    """Each unit takes a run of English sentences within one paragraph, at the least total cost:
    [(unit, paragraph, sure)]. The section's sentences are bounded (a stored section), so the work is linear in the
    units."""
    spans = [(index, s) for index, p in enumerate(paragraphs) for s in sentences(p.text_in(SOURCE))]
    n, m = len(found), len(spans)
    infinity = float("inf")
    cost = [[infinity] * (m + 1) for _ in range(n + 1)]
    step = [[None] * (m + 1) for _ in range(n + 1)]
    cost[0][0] = 0.0
    for i in range(n + 1):
        for j in range(m + 1):
            here = cost[i][j]
            if here == infinity:
                continue
            if j < m and here + SKIP_SENTENCE < cost[i][j + 1]:
                cost[i][j + 1], step[i][j + 1] = here + SKIP_SENTENCE, (i, j, None, 0.0)
            if i == n:
                continue
            if here + UNPLACED < cost[i + 1][j]:
                cost[i + 1][j], step[i + 1][j] = here + UNPLACED, (i, j, None, 0.0)
            for k in range(j + 1, min(j + LONGEST_RUN, m) + 1):
                if spans[k - 1][0] != spans[j][0]:
                    break
                pair = _pair_cost(found[i], [s for _p, s in spans[j:k]], paragraphs[spans[j][0]], ratio)
                if here + pair < cost[i + 1][k]:
                    cost[i + 1][k], step[i + 1][k] = here + pair, (i, j, spans[j][0], pair)
    chosen, i, j = [], n, m
    while i or j:
        previous_i, previous_j, index, pair = step[i][j]
        if index is not None and previous_i != i:
            chosen.append((found[previous_i], paragraphs[index], pair <= SURE_COST))
        i, j = previous_i, previous_j
    return chosen[::-1]


def _pair_cost(unit, english, paragraph, ratio):
    text = _text(unit)
    english_text = " ".join(english)
    cost = abs(math.log(max(len(text), 1) / (ratio * max(len(english_text), 1))))
    cost += 0.2 * abs(len(commentary.sentences(text)) - len(english))
    if unit.bullet != paragraph.bullet:
        cost += 0.5
    mine, theirs = _numbers(text), _numbers(english_text)
    if mine:
        cost += -0.3 if mine <= theirs else 0.3
    names = _card_names(text)
    if names:
        lowered = english_text.lower()
        cost += -0.5 if all(name.lower() in lowered for name in names) else 0.5
    return cost


def _numbers(text):
    text = unicodedata.normalize("NFKC", text).lower()
    found = set(re.findall(r"\d+", text))
    found |= {NUMBER_WORDS[word] for word in re.findall(r"[a-z]+", text) if word in NUMBER_WORDS}
    return found


def _card_names(text):
    """Card names written in English inside 《》: 《Ancestral Recall》, 《…/Sphinx of Jwar Isle》."""
    names = []
    for inside in re.findall(r"《([^》]+)》", text):
        english = inside.split("/")[-1].strip()
        if re.fullmatch(r"[A-Za-z][A-Za-z ,'\-]+", english):
            names.append(english)
    return names


def _as_new_paragraphs(found):
    placed, counts = [], {}
    for unit in found:
        part = unit.part or Part.TEXT
        counts[part] = counts.get(part, 0) + 1
        if part == Part.EXAMPLE:
            suffix = example_letter(unit.label) or chr(ord("a") + counts[part] - 1)
        else:
            suffix = str(counts[part])
        placed.append((unit, f"{KEY_PREFIX.get(part, part)}-{suffix}"))
    return placed


def _parts_from_groups(found, paragraphs):
    """Without headings, the parts in the document's order are the section's parts in order."""
    if any(unit.part for unit in found if not unit.label):
        return
    groups = sorted({unit.group for unit in found})
    parts = []
    for paragraph in paragraphs:
        if not parts or parts[-1] != paragraph.part:
            parts.append(paragraph.part)
    if len(groups) == len(parts):
        for unit in found:
            unit.part = parts[groups.index(unit.group)]


# English sentences


@functools.lru_cache(maxsize=65536)
def normal(text):
    text = unicodedata.normalize("NFKC", text).lower()
    text = re.sub(r"[—–‐-]", "-", text)
    text = re.sub(r"[‘’`]", "'", text)
    text = re.sub(r"[“”]", '"', text)
    text = re.sub(r"\s*-\s*", "-", text)
    return re.sub(r"\s+", " ", text).strip()


@functools.lru_cache(maxsize=65536)
def sentences(text):
    """An English text's sentences (kept: a section's stored sentences are read for each of its proposals)."""
    return tuple(s for s in SENTENCE_END.split(text.strip()) if s)


@functools.lru_cache(maxsize=65536)
def _similarity(a, b):
    """How alike two normalised sentences are (0 where they are not close). Kept for the sentences a document
    repeats (the same section printed twice, a paste of several copies)."""
    if a == b:
        return 1.0
    if min(len(a), len(b)) < 0.73 * max(len(a), len(b)):  # then the ratio cannot reach 0.85
        return 0.0
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    if matcher.real_quick_ratio() < 0.85 or matcher.quick_ratio() < 0.85:
        return 0.0
    return matcher.ratio()


def _score(mine, theirs):
    """How much of a unit's English is in a paragraph's: the share of its (normalised) sentences found there."""
    if not theirs:
        return 0.0
    found = sum(s in theirs or max(_similarity(s, t) for t in theirs) >= 0.85 for s in mine)
    return found / len(mine) if mine else 0.0
