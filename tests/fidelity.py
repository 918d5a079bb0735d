"""How content/ follows the seeds: checks that return a list of problems (an empty list: faithful).

The seeds are `tests/fixtures/seeds/` (copies of the project's source texts), read as design.md §2
says; the outline is `tests/fixtures/outline.md` (design.md §3). Each check takes the content as
`ipgsite.contentfiles.sections.read_content` gives it (chapters, section documents), or a rendered page,
and compares it with what the seeds give, in both directions and occurrence for occurrence. The only
places where content/ may differ from a seed are the READINGS below, also listed in docs/content.md
("How content follows the seeds").
"""

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SEEDS = FIXTURES / "seeds"
OUTLINE = FIXTURES / "outline.md"
LANGUAGES = ("en", "zh-hans", "ja")
HTML_LANGUAGES = {"en": "en", "zh-Hans": "zh-hans", "ja": "ja"}


@dataclass(frozen=True)
class Reading:
    """A place where content/ does not follow one seed's wording, and why."""

    seed: str
    seed_text: str
    content_text: str
    why: str


READINGS = (
    Reading(
        "003",
        "the set of cards that contain the excess",
        "the set of cards that contains the excess",
        "2.3 remedy-5: seed 000's wording, as in remedy-3",
    ),
    Reading("003", "previously unknown-cards", "previously-unknown cards", "2.3 remedy-5: seed 000's wording"),
    Reading(
        "000",
        "Game Play Error —Looking at Extra Cards",
        "Game Play Error — Looking at Extra Cards",
        "2.3 definition-2: the section's title, with a spaced em dash",
    ),
    Reading(
        "003",
        "Game Play Error–Looking at Extra Cards",
        "Game Play Error — Looking at Extra Cards",
        "2.3 definition-2: the section's title, with a spaced em dash",
    ),
)

# Seed 002 has no part headings: its groups of paragraphs, separated by two blank lines, are these parts.
SEED_002_PARTS = ("definition", "example", "philosophy", "additional-remedy")

# Seed 001, the Japanese annotated edition: the lines (1-based) of each official paragraph of 2.3. Every
# other line is a heading, the penalty line or commentary (checked below: official text is in the plain
# form, commentary in the polite form).
SEED_001_OFFICIAL = {
    "definition-1": [3, 5, 8],
    "definition-2": [10],
    "example-a": [14],
    "example-b": [15],
    "example-c": [16],
    "example-d": [17],
    "example-e": [18],
    "example-f": [19],
    "philosophy-1": [24],
    "philosophy-2": [26, 28],
    "philosophy-3": [30],
    "philosophy-4": [32],
    "philosophy-5": [34],
    "remedy-1": [37],
    "remedy-2": [40],
    "remedy-3": [42],
    "remedy-4": [44],
    "remedy-5": [47, 48],
    "upgrade-1": [51],
}
POLITE = re.compile(r"(です|ます|ません|でした|ました|しょう|ください)。")

PARTS = {  # part headings by language (design.md §2)
    "definition": ("Definition", "定义", "定義"),
    "example": ("Examples", "范例", "例"),
    "philosophy": ("Philosophy", "原则", "理念"),
    "additional-remedy": ("Additional Remedy", "进一步的修正", "追加措置"),
    "upgrade": ("Upgrade", "升级", "格上げ"),
}
KEY_PREFIX = {
    "definition": "definition",
    "example": "example",
    "philosophy": "philosophy",
    "additional-remedy": "remedy",
    "upgrade": "upgrade",
    "downgrade": "downgrade",
    "text": "text",
}
INLINE_HEADING = re.compile(r"^(升级|格上げ)\s*[:：]\s*")
LABEL = re.compile(r"^(?:\(([A-Z])\)|([A-Z])\.)\s+")
PENALTY_LINE = re.compile(r"^(Penalty|Warning|懲罰|处罚)\b")
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]")
SENTENCE_END = re.compile(r"(?<=。)|(?<=[.?!])\s+(?=[A-Z“‘\"(])")


def normalize(text):
    """Line breaks and runs of spaces as one space, ends trimmed; a no-break space inside the text (seed 004
    has some) is kept."""
    return re.sub(r"[ \t\r\n]+", " ", text or "").strip()


def sentences(text):
    """Sentences of English or CJK text: split after 。, or after . ? ! and a space before a capital."""
    return [s.strip() for s in SENTENCE_END.split(normalize(text)) if s and s.strip()]


def blocks(text):
    """The paragraphs of a note body (separated by blank lines)."""
    return [normalize(b) for b in re.split(r"\n\s*\n", text or "") if b.strip()]


def join(language, pieces):
    return ("" if language in ("zh-hans", "ja") else " ").join(pieces)


def is_cjk(line):
    return CJK.search(line) is not None


def raw_seed(prefix):
    return next(SEEDS.glob(f"{prefix}_*.txt")).read_text(encoding="utf-8")


@cache
def seed(prefix):
    """A seed's text with the documented readings applied; each must apply exactly once."""
    text = raw_seed(prefix)
    for reading in READINGS:
        if reading.seed == prefix:
            count = text.count(reading.seed_text)
            if count != 1:
                raise ValueError(f"the reading {reading.seed_text!r} occurs {count} times in seed {prefix}, not once")
            text = text.replace(reading.seed_text, reading.content_text)
    return text


def heading(line):
    """The part a heading line names ("DEFINITION 定义", "定義:", "Examples"), or None."""
    words = line.strip().rstrip(":：").strip().casefold()
    for part, (en, zh, ja) in PARTS.items():
        if words in {en.casefold(), zh, ja, f"{en} {zh}".casefold()}:
            return part
    return None


def label(line):
    """An example's letter and the line without it: "A. A player …" → ("A", "A player …")."""
    match = LABEL.match(line)
    if not match:
        return None, line
    return match.group(1) or match.group(2), line[match.end() :]


# What the seeds give


@dataclass
class Paragraph:
    part: str
    label: str | None = None
    bullet: bool = False
    texts: dict = field(default_factory=dict)
    sources: dict = field(default_factory=dict)
    key: str = ""


@dataclass
class Note:
    paragraph: str
    language: str
    blocks: list
    source: str


@dataclass
class Seeded:
    number: str
    paragraphs: list
    notes: list = field(default_factory=list)

    def paragraph(self, key):
        return next((p for p in self.paragraphs if p.key == key), None)


def _give_keys(paragraphs):
    counts = Counter()
    for p in paragraphs:
        counts[p.part] += 1
        if p.part == "example" and p.label:
            p.key = f"example-{p.label.lower()}"
        else:
            p.key = f"{KEY_PREFIX[p.part]}-{counts[p.part]}"
    return paragraphs


def _seed_000():
    """2.3 in English and Chinese: each English paragraph followed by its Chinese, under part headings."""
    lines = [line.strip() for line in seed("000").splitlines() if line.strip()]
    start = next(i for i, line in enumerate(lines) if heading(line))
    paragraphs, part = [], None
    for line in lines[start:]:
        if heading(line):
            part = heading(line)
            continue
        letter, text = label(line)
        if not is_cjk(line):
            paragraphs.append(Paragraph(part, letter, texts={"en": normalize(text)}, sources={"en": "000"}))
            continue
        current = paragraphs[-1]
        if INLINE_HEADING.match(text):
            part = current.part = "upgrade"
            text = INLINE_HEADING.sub("", text)
        if "zh-hans" in current.texts or letter != current.label:
            raise ValueError(f"seed 000: {line[:30]!r} does not follow its English")
        current.texts["zh-hans"], current.sources["zh-hans"] = normalize(text), "000"
    return paragraphs


def _seed_003():
    """2.3 in English: paragraphs under part headings; the examples a bulleted list."""
    body = seed("003").split("\n", 1)[1]
    paragraphs, part = [], None
    for block in re.split(r"\n\s*\n", body):
        pieces = [b for b in re.split(r"\n\s*•\s*", "\n" + block) if b.strip()] if "•" in block else [block]
        for piece in pieces:
            piece = normalize(piece)
            if heading(piece):
                part = heading(piece)
                continue
            letter, text = label(piece)
            paragraphs.append(Paragraph(part, letter, texts={"en": text}, sources={"en": "003"}))
    return paragraphs


def _seed_001():
    """2.3 in Japanese, annotated: official lines (SEED_001_OFFICIAL) and the commentary after them."""
    lines = seed("001").splitlines()
    line_key = {n: key for key, numbers in SEED_001_OFFICIAL.items() for n in numbers}
    official, parts, notes = {}, {}, []
    part, last_key, run = None, None, None
    for number, line in enumerate(lines, 1):
        line = line.strip()
        if not line or PENALTY_LINE.match(line):
            run = None
            continue
        if heading(line):
            part, run = heading(line), None
            continue
        if number in line_key:
            key = line_key[number]
            if INLINE_HEADING.match(line):
                part, line = "upgrade", INLINE_HEADING.sub("", line)
            letter, line = label(line)
            if letter and key != f"example-{letter.lower()}":
                raise ValueError(f"seed 001 line {number} is example {letter}, SEED_001_OFFICIAL reads it as {key}")
            official.setdefault(key, []).append(normalize(line))
            parts.setdefault(key, set()).add(part)
            last_key, run = key, None
            continue
        named = re.match(r"^例\(([A-Z])\)", line)
        if named or run is None:
            run = Note(f"example-{named.group(1).lower()}" if named else last_key, "ja", [], "001")
            notes.append(run)
        run.blocks.append(normalize(line))
        if named:
            run = None
    return official, parts, notes, lines


def _seed_002():
    """2.4 in English, with the Chinese of some paragraphs after them; no headings (SEED_002_PARTS)."""
    body = seed("002").split("Warning 警告", 1)[1]
    groups = [g for g in re.split(r"\n(?:[ \t]*\n){2,}", body) if g.strip()]
    if len(groups) != len(SEED_002_PARTS):
        raise ValueError(f"seed 002 has {len(groups)} groups of paragraphs, not {len(SEED_002_PARTS)}")
    paragraphs = []
    for part, group in zip(SEED_002_PARTS, groups, strict=False):
        for line in (line.strip() for line in group.splitlines() if line.strip()):
            letter, text = label(line)
            if not is_cjk(line):
                paragraphs.append(Paragraph(part, letter, texts={"en": normalize(text)}, sources={"en": "002"}))
                continue
            current = paragraphs[-1]
            if "zh-hans" in current.texts or letter != current.label or current.part != part:
                raise ValueError(f"seed 002: {line[:30]!r} does not follow its English")
            current.texts["zh-hans"], current.sources["zh-hans"] = normalize(text), "002"
    return paragraphs


def _seed_004():
    """2.1 in Japanese: official paragraphs, bullets, and one commentary block `alert … [/alert]`."""
    lines = [line for line in seed("004").splitlines()[1:] if line.strip()]
    paragraphs, notes, part = [], [], None
    for line in lines:
        line = line.strip()
        if PENALTY_LINE.match(line):
            continue
        if heading(line):
            part = heading(line)
            continue
        if line.startswith("alert"):
            body = line.removeprefix("alert").removesuffix("[/alert]")
            notes.append(Note(paragraphs[-1], "ja", [normalize(body)], "004"))
            continue
        bullet = line.startswith("•")
        line = line.lstrip("•").strip()
        if INLINE_HEADING.match(line):
            part, line = "upgrade", INLINE_HEADING.sub("", line)
        letter, text = label(line)
        paragraphs.append(Paragraph(part, letter, bullet, {"ja": normalize(text)}, {"ja": "004"}))
    _give_keys(paragraphs)
    for note in notes:
        note.paragraph = note.paragraph.key
    return paragraphs, notes


@cache
def seeded():
    """Every section the seeds hold, as they give it: number → Seeded."""
    hidden = _give_keys(_seed_000())
    official, _parts, notes, _lines = _seed_001()
    for key, pieces in official.items():
        paragraph = next(p for p in hidden if p.key == key)
        paragraph.texts["ja"], paragraph.sources["ja"] = join("ja", pieces), "001"
    missed, missed_notes = _seed_004()
    return {
        "2.1": Seeded("2.1", missed, missed_notes),
        "2.3": Seeded("2.3", hidden, notes),
        "2.4": Seeded("2.4", _give_keys(_seed_002())),
    }


def check_seeds():
    """The seeds, read this way, agree with one another: seed 003 with seed 000, seed 001's parts and forms."""
    problems = []
    hidden = seeded()["2.3"]
    plain = _seed_003()
    for paragraph in hidden.paragraphs:
        taken = []
        while plain and normalize(" ".join(p.texts["en"] for p in taken)) != paragraph.texts["en"]:
            taken.append(plain.pop(0))
            if len(" ".join(p.texts["en"] for p in taken)) > len(paragraph.texts["en"]):
                break
        if normalize(" ".join(p.texts["en"] for p in taken)) != paragraph.texts["en"]:
            problems.append(f"seeds 000 and 003 disagree on 2.3 {paragraph.key}: {paragraph.texts['en'][:60]!r}")
            break
        for p in taken:
            if (p.part, p.label) != (paragraph.part, paragraph.label):
                problems.append(
                    f"seed 003 puts 2.3 {paragraph.key} in {p.part} {p.label or ''}, seed 000 in "
                    f"{paragraph.part} {paragraph.label or ''}"
                )
    if plain:
        problems.append(f"seed 003 has more than seed 000: {plain[0].texts['en'][:60]!r}")
    _official, parts, notes, lines = _seed_001()
    for key, found in parts.items():
        if found != {hidden.paragraph(key).part}:
            problems.append(
                f"seed 001 has 2.3 {key} under {sorted(found)}, seed 000 under {hidden.paragraph(key).part}"
            )
    for key, numbers in SEED_001_OFFICIAL.items():
        for number in numbers:
            if POLITE.search(lines[number - 1]):
                problems.append(f"seed 001 line {number}, read as official {key}, is in the polite form of commentary")
    for note in notes:
        for block in note.blocks:
            if not POLITE.search(block):
                problems.append(f"seed 001: {block[:30]!r}, read as commentary, is not in the polite form")
    return problems


# Checks of content/


def _where(a, b):
    """The first place two texts differ, with a little context."""
    i = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    return f"content {a[max(0, i - 25) : i + 25]!r}, seed {b[max(0, i - 25) : i + 25]!r}"


def _order(keys, wanted):
    """Where a list of paragraph keys first departs from the seeds' order."""
    i = next((i for i, (a, b) in enumerate(zip(keys, wanted, strict=False)) if a != b), min(len(keys), len(wanted)))
    return f"{keys[i : i + 3]} from position {i + 1}, the seeds give {wanted[i : i + 3]} ({len(keys)} against {len(wanted)})"


def check_paragraphs(sections):
    """Each seeded section has the seeds' paragraphs, in their order, parts, bullets and languages."""
    problems = []
    by_number = {doc.number: doc for doc in sections}
    for number, expected in seeded().items():
        doc = by_number.get(number)
        if doc is None:
            problems.append(f"{number}: missing from content/")
            continue
        keys, wanted = [p.key for p in doc.paragraphs], [p.key for p in expected.paragraphs]
        if keys != wanted:
            problems.append(f"{number}: paragraphs in content/ are {_order(keys, wanted)}")
        have = {p.key: p for p in doc.paragraphs}
        for want in expected.paragraphs:
            got = have.get(want.key)
            where = f"{number} {want.key}"
            if got is None:
                problems.append(f"{where}: missing (the seeds have {want.texts})")
                continue
            if got.part != want.part:
                problems.append(f"{where}: part {got.part!r}, the seeds put it under {want.part!r}")
            if got.bullet != want.bullet:
                problems.append(
                    f"{where}: bullet is {got.bullet}, the seed {'has' if want.bullet else 'has no'} bullet"
                )
            for code in LANGUAGES:
                text, seed_text = normalize(got.texts.get(code)), want.texts.get(code)
                if seed_text is None and text:
                    problems.append(f"{where}: has a {code} text no seed has (an invented translation): {text[:60]!r}")
                elif seed_text and not text:
                    problems.append(f"{where}: lacks its {code} text (seed {want.sources[code]}: {seed_text[:60]!r})")
                elif seed_text and text != seed_text:
                    problems.append(
                        f"{where}: {code} differs from seed {want.sources[code]}: {_where(text, seed_text)}"
                    )
        for key in have.keys() - {p.key for p in expected.paragraphs}:
            problems.append(f"{number} {key}: not in the seeds: {have[key].texts}")
    for doc in sections:
        if doc.number not in seeded() and (doc.paragraphs or doc.notes):
            problems.append(f"{doc.number}: has text, but no seed holds this section")
    return problems


def check_notes(sections):
    """Each seeded section's notes are the seeds' commentary, on the paragraph it follows, in order."""
    problems = []
    by_number = {doc.number: doc for doc in sections}
    for number, expected in seeded().items():
        doc = by_number.get(number)
        if doc is None:
            continue
        want = [(n.paragraph, n.language, n.blocks) for n in expected.notes]
        order = {p.key: i for i, p in enumerate(doc.paragraphs)}
        got = sorted(
            ((n.paragraph, n.language, blocks(n.bodies.get(n.language))) for n in doc.notes),
            key=lambda note: order.get(note[0], -1),
        )
        for n in doc.notes:
            for code in n.bodies.keys() - {n.language}:
                problems.append(
                    f"{number} note on {n.paragraph}: has a {code} text no seed has: {n.bodies[code][:40]!r}"
                )
        for key in {k for k, _, _ in want + got}:
            mine = [(code, b) for k, code, b in got if k == key]
            theirs = [(code, b) for k, code, b in want if k == key]
            if len(mine) != len(theirs):
                problems.append(
                    f"{number} notes on {key}: content has {len(mine)} "
                    f"({[b[0][:20] for _, b in mine if b]}), the seeds {len(theirs)} "
                    f"({[b[0][:20] for _, b in theirs]})"
                )
                continue
            for i, ((code, got_blocks), (seed_code, seed_blocks)) in enumerate(zip(mine, theirs, strict=False), 1):
                if code != seed_code:
                    problems.append(f"{number} notes on {key}: note {i} is in {code}, the seed's in {seed_code}")
                elif got_blocks != seed_blocks:
                    problems.append(
                        f"{number} notes on {key}: note {i} differs from the seed: "
                        f"{len(got_blocks)} paragraphs against {len(seed_blocks)}, "
                        f"{_where(chr(10).join(got_blocks), chr(10).join(seed_blocks))}"
                    )
    return problems


def check_sentences(sections):
    """Every sentence of content/ is in a seed, and every seed sentence in content/, as many times.

    Counted per section and language, official text and notes apart.
    """
    problems = []
    by_number = {doc.number: doc for doc in sections}
    for number, expected in seeded().items():
        doc = by_number.get(number)
        if doc is None:
            continue
        for code in LANGUAGES:
            for kind, want, got in (
                (
                    "official text",
                    [p.texts.get(code) for p in expected.paragraphs],
                    [p.texts.get(code) for p in doc.paragraphs],
                ),
                (
                    "notes",
                    [" ".join(n.blocks) for n in expected.notes if n.language == code],
                    [n.bodies.get(code) for n in doc.notes],
                ),
            ):
                want = Counter(s for text in want for s in sentences(text))
                got = Counter(s for text in got for s in sentences(text))
                for sentence, count in got.items():
                    if count > want[sentence]:
                        what = (
                            "not in the seeds"
                            if not want[sentence]
                            else f"{count} times, the seed has it {want[sentence]}"
                        )
                        problems.append(f"{number} {code} {kind}: {sentence[:70]!r} {what}")
                for sentence, count in want.items():
                    if got[sentence] < count:
                        problems.append(
                            f"{number} {code} {kind}: the seed's {sentence[:70]!r} is in content/ "
                            f"{got[sentence]} times, the seed has it {count}"
                        )
    return problems


@cache
def outline():
    """design.md §3 and §1 (tests/fixtures/outline.md): number → (English title, penalty, CJK names)."""
    text = OUTLINE.read_text(encoding="utf-8")
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or not re.match(r"^\d\.\d", cells[0]):
            continue
        number, title, penalty, names = cells
        names = [n.strip() for n in names.split(";") if n.strip()]
        if "–" in number:
            first, last = number.split("–")
            chapter, low, high = first.split(".")[0], int(first.split(".")[1]), int(last.split(".")[1])
            for n, name in zip(range(low, high + 1), title.split(";"), strict=False):
                rows[f"{chapter}.{n}"] = (name.strip(), penalty, names)
        else:
            rows[number] = (title, penalty, names)
    for letter, name in re.findall(r"Appendix ([A-Z]) \(([^)]+)\)", text):
        rows[letter] = (f"Appendix {letter} — {name}", "—", [])
    return rows


PENALTIES = {
    "—": "",
    "No Penalty": "no-penalty",
    "Warning": "warning",
    "Game Loss": "game-loss",
    "Match Loss": "match-loss",
    "Disqualification": "disqualification",
}


def _initials(name):
    return "".join(word[0] for word in name.split() if word[0].isupper())


def check_names(chapters, sections):
    """Titles, aliases, former names and penalties against the outline and the seeds."""
    problems = []
    seeds = [normalize(raw_seed(p)) for p in ("000", "001", "002", "003", "004")]

    def in_seeds(name):
        return any(normalize(name) in s for s in seeds)

    for chapter in chapters:
        for code in ("zh-hans", "ja"):
            if chapter.title.get(code) and not in_seeds(chapter.title[code]):
                problems.append(f"chapter {chapter.number}: the {code} title {chapter.title[code]!r} is in no seed")
    for doc in sections:
        row = outline().get(doc.number)
        if row is None:
            problems.append(f"{doc.number}: not in the outline")
            continue
        title, penalty, known = row
        if doc.number.isalpha():
            if doc.title["en"].casefold() != title.casefold():
                problems.append(f"{doc.number}: English title {doc.title['en']!r}, the outline has {title!r}")
        elif doc.title["en"] != title:
            problems.append(f"{doc.number}: English title {doc.title['en']!r}, the outline has {title!r}")
        if doc.penalty != PENALTIES[penalty]:
            problems.append(f"{doc.number}: penalty {doc.penalty!r}, the outline has {penalty!r}")
        names = [("title", code, doc.title[code]) for code in ("zh-hans", "ja") if code in doc.title]
        names += [("alias", code, v) for code, values in doc.aliases.items() for v in values]
        names += [("former name", code, v) for code, values in doc.former_names.items() for v in values]
        for (kind, code, value), count in Counter(names).items():
            if count > 1:
                problems.append(f"{doc.number}: the {code} {kind} {value!r} is listed {count} times")
        for kind, code, value in names:
            if code == "en":
                if doc.number not in seeded():
                    continue
                name = title.split(" — ", 1)[-1]
                chapter_name = title.split(" — ", 1)[0]
                allowed = {name, _initials(name), f"{_initials(chapter_name)}-{_initials(name)}"}
                if value not in allowed and not in_seeds(value):
                    problems.append(
                        f"{doc.number}: the English {kind} {value!r} is neither in a seed nor the "
                        f"outline's name {name!r} or its initials"
                    )
                continue
            if not in_seeds(value):
                problems.append(f"{doc.number}: the {code} {kind} {value!r} is in no seed")
            elif kind == "former name":
                if not any(re.search(rf"(?<![\d.]){re.escape(doc.number)}\.?\s+{re.escape(value)}", s) for s in seeds):
                    problems.append(f"{doc.number}: no seed gives {value!r} as the name of {doc.number}")
            elif not any(value in k or k in value for k in known):
                problems.append(
                    f"{doc.number}: the {code} {kind} {value!r} is not a name the outline gives {doc.number} ({known})"
                )
    return problems


def check_content(chapters, sections):
    return (
        check_paragraphs(sections) + check_notes(sections) + check_sentences(sections) + check_names(chapters, sections)
    )


# Checks of a rendered page


class Element:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent, self.children = tag, dict(attrs), parent, []

    @property
    def classes(self):
        return (self.attrs.get("class") or "").split()

    def walk(self, skip=()):
        """The elements inside, without those having one of the classes in `skip` and what is inside them."""
        for child in self.children:
            if isinstance(child, Element) and not set(child.classes) & set(skip):
                yield child
                yield from child.walk(skip)

    def text(self, skip=()):
        return "".join(
            c if isinstance(c, str) else ("" if set(c.classes) & set(skip) else c.text(skip)) for c in self.children
        )

    def tags(self, skip=()):
        for child in self.children:
            if isinstance(child, Element) and not set(child.classes) & set(skip):
                yield child.tag
                yield from child.tags(skip)


class _Tree(HTMLParser):
    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

    def __init__(self):
        super().__init__()
        self.root = self.current = Element("document", {}, None)

    def handle_starttag(self, tag, attrs):
        element = Element(tag, attrs, self.current)
        self.current.children.append(element)
        if tag not in self.VOID:
            self.current = element

    def handle_endtag(self, tag):
        node = self.current
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.current = node.parent

    def handle_data(self, data):
        self.current.children.append(data)


def parse_html(html):
    tree = _Tree()
    tree.feed(html)
    tree.close()
    return tree.root


# What a paragraph's text may render to: the seeds have no lists, headings or emphasis.
FORBIDDEN = {
    "ul",
    "ol",
    "li",
    "em",
    "strong",
    "b",
    "i",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "blockquote",
    "code",
    "pre",
    "hr",
    "br",
    "table",
    "img",
}
# Site text shown with the official text, never part of it: labels, lag and change marks, a marked term's names in
# the other languages (ipgsite/terms).
LABELS = ("example-label", "missing-label", "column-name", "note-source", "lag", "changed-mark", "term-cards")


def _markup(where, element, paragraphs):
    tags = list(element.tags(LABELS))
    problems = [f"{where}: rendered with <{t}>, which the seed does not have" for t in sorted(set(tags) & FORBIDDEN)]
    if tags.count("p") != paragraphs:
        problems.append(f"{where}: rendered as {tags.count('p')} paragraphs (<p>), the seed has {paragraphs}")
    return problems


def check_page(html, number, languages):
    """A section page shows each text of the seeds intact, in its part and order, and notes as notes."""
    expected = seeded()[number]
    problems = []
    root = parse_html(html)
    rows = [e for e in root.walk() if "row" in e.classes and e.attrs.get("id")]
    keys = [r.attrs["id"] for r in rows]
    if keys != [p.key for p in expected.paragraphs]:
        problems.append(f"{number}: the page shows paragraphs {_order(keys, [p.key for p in expected.paragraphs])}")
    shown = {}
    for row in rows:
        key, want = row.attrs["id"], expected.paragraph(row.attrs["id"])
        if want is None:
            problems.append(f"{number} {key}: on the page, not in the seeds")
            continue
        part = next((c for a in _ancestors(row) for c in a.classes if c.startswith("part-")), None)
        if part != f"part-{want.part}":
            problems.append(f"{number} {key}: shown in {part}, the seeds put it under {want.part}")
        if ("bullet" in row.classes) != want.bullet:
            problems.append(f"{number} {key}: shown {'with' if 'bullet' in row.classes else 'without'} a bullet")
        if any(e.tag == "aside" for e in row.walk()):
            problems.append(f"{number} {key}: a note is shown inside the official text")
        for block in (e for e in row.walk() if "text" in e.classes):
            text = normalize(block.text(LABELS))
            if not text:
                continue
            code = HTML_LANGUAGES.get(block.attrs.get("lang"))
            where = f"{number} {key} ({block.attrs.get('lang')})"
            if want.texts.get(code) is None:
                problems.append(f"{where}: shows a text no seed has: {text[:60]!r}")
                continue
            if text != want.texts[code]:
                problems.append(f"{where}: shown as {_where(text, want.texts[code])}")
            problems += _markup(where, block, 1)
            if want.label:
                letters = [normalize(e.text()) for e in block.walk() if "example-label" in e.classes]
                if not letters or want.label not in letters[0]:
                    problems.append(f"{where}: shown with label {letters}, the seed's example is {want.label}")
            shown.setdefault(key, set()).add(code)
    for want in expected.paragraphs:
        for code in languages:
            if code in want.texts and code not in shown.get(want.key, set()):
                problems.append(f"{number} {want.key}: its {code} text is not on the page")
    problems += _check_page_notes(root, number, expected, languages)
    return problems


def _ancestors(element):
    while element.parent is not None:
        element = element.parent
        yield element


def _check_page_notes(root, number, expected, languages):
    problems, key, found = [], None, {}
    for element in root.walk():
        if "row" in element.classes and element.attrs.get("id"):
            key = element.attrs["id"]
        elif element.tag == "aside":
            for body in (e for e in element.walk() if "note-body" in e.classes):
                code = HTML_LANGUAGES.get(body.attrs.get("lang"))
                paragraphs = [normalize(p.text(LABELS)) for p in body.walk(LABELS) if p.tag == "p"]
                found.setdefault(key, []).append((code, paragraphs))
                problems += _markup(f"{number} note on {key}", body, len(paragraphs) or 1)
    for key, notes in found.items():
        want = [(n.language, n.blocks) for n in expected.notes if n.paragraph == key]
        for note in notes:
            if note not in want:
                problems.append(
                    f"{number}: a note shown after {key} is not the seeds' commentary on it: "
                    f"{note[1][0][:40] if note[1] else ''!r}"
                )
    for note in expected.notes:
        if note.language in languages and (note.language, note.blocks) not in found.get(note.paragraph, []):
            problems.append(
                f"{number}: the commentary on {note.paragraph} ({note.blocks[0][:30]!r}) is not shown "
                "as a note after it"
            )
    return problems


# The termbase (content/terms.toml) ------------------------------------------------------------------------------

SEEDS_BY_LANGUAGE = {"en": ("000", "002", "003"), "zh-hans": ("000", "002"), "ja": ("001", "004")}


def english_forms(name):
    """An English name as the texts may inflect it: scry → scries, scried; draw → draws, drawn; shuffle → shuffled."""
    stem = name[:-1] if name.endswith("y") else name
    return {
        name,
        name + "s",
        name + "es",
        name + "ed",
        name + "d",
        name + "ing",
        name + "n",
        stem + "ies",
        stem + "ied",
    }


def holds(text, code, form, name=False):
    """Whether `text` holds the form: CJK as a substring, English as whole words in any case (a name, inflected)."""
    if code != "en":
        return form in text
    forms = english_forms(form.casefold()) if name else {form.casefold()}
    pattern = "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))
    return re.search(rf"(?<![A-Za-z0-9])(?:{pattern})(?![A-Za-z0-9])", text, re.IGNORECASE) is not None


def seed_line(location):
    prefix, line = location.split(":")
    lines = raw_seed(prefix).split("\n")
    return prefix, lines[int(line) - 1] if 0 < int(line) <= len(lines) else None


def check_terms(terms, sections):
    """Every name and variant is in a seed in its language, where `found` says; every location holds its form; a
    defining paragraph is a definition of the section the term names; and where a term has names in two languages,
    one aligned paragraph holds both."""
    problems = []
    paragraphs = {(s.number, p.key): p for s in sections for p in s.paragraphs}
    titles = {s.number: s for s in sections}
    for term in terms:
        attested = [(code, term.names[code], True) for code in LANGUAGES if code in term.names]
        attested += [(code, form, False) for code in LANGUAGES for form in term.variants.get(code, [])]
        for code, form, is_name in attested:
            if not any(
                holds(line, code, form, is_name) for p in SEEDS_BY_LANGUAGE[code] for line in raw_seed(p).split("\n")
            ):
                problems.append(f"{term.key}: the {code} form {form!r} is in no {code} seed")
            places = [
                location
                for location in term.found.get(form, [])
                if (":" in location and location.split(":")[0] in SEEDS_BY_LANGUAGE[code])
                or ("#" in location and code in paragraphs.get(tuple(location.split("#")), ParagraphLike()).texts)
            ]
            if not places and not (is_name and code in term.attested_by_variants):
                problems.append(f"{term.key}: found names no {code} place for {form!r}")
        for form, locations in term.found.items():
            # A place holds the form itself, not another inflection of it.
            codes = [code for code, f, _n in attested if f == form]
            for location in locations:
                if ":" in location:
                    _prefix, line = seed_line(location)
                    if line is None or not any(holds(line, code, form) for code in codes):
                        problems.append(f"{term.key}: seed line {location} does not hold {form!r}")
                else:
                    paragraph = paragraphs.get(tuple(location.split("#")))
                    texts = paragraph.texts if paragraph else {}
                    if not any(holds(texts.get(code, ""), code, form) for code in codes):
                        problems.append(f"{term.key}: paragraph {location} does not hold {form!r}")
        if term.defined_at:
            number, key = term.defined_at.split("#")
            paragraph, section = paragraphs.get((number, key)), titles.get(number)
            names = [*section.title.values(), *(n for ns in section.aliases.values() for n in ns)] if section else []
            if paragraph is None or paragraph.part != "definition":
                problems.append(f"{term.key}: {term.defined_at} is no definition")
            elif not any(name in title for name in term.names.values() for title in names):
                problems.append(f"{term.key}: {term.defined_at} defines a section that none of its names names")
        forms = {
            code: [term.names[code], *term.variants.get(code, []), *term.inflections.get(code, [])]
            for code in term.names
        }
        for code in ("zh-hans", "ja"):
            if code not in forms or "en" not in forms:
                continue
            texts = [p.texts for p in paragraphs.values()] + [s.title for s in sections]
            if not any(
                any(holds(t.get("en", ""), "en", f, True) for f in forms["en"])
                and any(holds(t.get(code, ""), code, f) for f in forms[code])
                for t in texts
            ):
                problems.append(f"{term.key}: no aligned paragraph holds both its en and {code} names")
    return problems


class ParagraphLike:
    texts = {}
