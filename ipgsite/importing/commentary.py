"""Telling an annotated edition's commentary from its official text, and what each note is on.

In the Japanese annotated edition nothing marks which is which but the content: the official text is a
translation, in the plain form (…した。…である。…適用される。), and the commentary addresses the reader
in the polite form (…です。…ます。…しましょう。), often opening with この文は, この部分は or 例えば.
A commentary box (`alert … [/alert]`, a rendered box) and a paragraph marked 【解説】 or ※ are
commentary whatever their form. Commentary is on the official paragraph before it; a run of commentary
paragraphs is one note, except that one opening on an example's letter ("例(C)は") is a note on that example."""

import functools
import re
import unicodedata

from .vocabulary import EXAMPLE_OPENING

POLITE = re.compile(r"(です|ます|ました|ません|でした|ましょう|ください|でしょう|ませんでした)[」』）)\]]*$")
OPENINGS = (
    "この文は",
    "この部分は",
    "この例",
    "この場合",
    "この条項",
    "この違反の",
    "例えば",
    "例を挙げると",
    "加えて",
)
PLAIN_OPENINGS = ("例えば",)  # opens official text too: counts only beside the polite form


@functools.lru_cache(maxsize=65536)
def sentences(text):
    return tuple(s for s in re.split(r"(?<=[。！？])", text.strip()) if s.strip())


def politeness(text):
    """The share of the text's sentences in the polite form."""
    found = sentences(text)
    if not found:
        return 0.0
    return sum(bool(POLITE.search(s.strip().rstrip("。！？"))) for s in found) / len(found)


def is_commentary(unit):
    """Whether a unit without English is commentary rather than official text."""
    if unit.box or unit.marked:
        return True
    if unit.label or len(unit.texts) != 1:
        return False
    text = next(iter(unit.texts.values()))
    share = politeness(text)
    if share >= 0.5:
        return True
    opens = text.startswith(OPENINGS) and not text.startswith(PLAIN_OPENINGS)
    return share > 0 and opens


def example_named(unit):
    """The example a commentary paragraph opens on ("例(C)は、…" → "c"), or ""."""
    match = EXAMPLE_OPENING.match(unicodedata.normalize("NFKC", next(iter(unit.texts.values()), "")[:8]))
    return match.group(1).lower() if match else ""


def classify(units):
    """Mark commentary, and attach each run of it to the official unit before it as notes.

    Returns the units of official text, and the commentary that comes before any official text. A box is a note of
    its own, but for a paragraph in it that opens on an example's letter, which starts a note on that example."""
    official, orphans, current = [], [], None  # current: the note being written
    for unit in units:
        if not is_commentary(unit):
            official.append(unit)
            current = None
            continue
        unit.commentary = True
        if not official:
            orphans.append(unit)
            continue
        for position, piece in enumerate(_pieces(unit)):
            example = example_named(piece)
            if current is None or (unit.box and not position) or example or current["box"] != unit.box:
                current = {"texts": {}, "example": example, "box": unit.box, "line": unit.line, "where": unit.where}
                official[-1].notes.append(current)
            for code, text in piece.texts.items():
                current["texts"][code] = f"{current['texts'][code]}\n\n{text}" if code in current["texts"] else text
    return official, orphans


def _pieces(unit):
    """A box's paragraphs, each as a unit of its own; any other unit whole."""
    if not unit.box:
        return [unit]
    code, text = next(iter(unit.texts.items()))
    return [
        type(unit)(texts={code: paragraph}, box=True, line=unit.line, where=unit.where)
        for paragraph in text.split("\n\n")
        if paragraph.strip()
    ]
