"""Every range of CJK characters the site uses is defined once, in `ipgsite/ipg/text.py`."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Where the CJK ranges are defined

ESCAPE = r"\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{8}"
CJK_ESCAPE = re.compile(ESCAPE)
RANGE = re.compile(rf"({ESCAPE}|[^\s\\])-({ESCAPE}|[^\s\\])")
# Radicals to the unified ideographs (punctuation, kana, bopomofo, enclosed forms, Han), Hangul syllables,
# compatibility ideographs and forms, full-width forms, and the supplementary ideographic planes.
CJK_BLOCKS = [(0x2E80, 0x9FFF), (0xAC00, 0xD7AF), (0xF900, 0xFAFF), (0xFE30, 0xFE4F), (0xFF00, 0xFFEF)]
CJK_BLOCKS += [(0x20000, 0x3FFFF)]


def is_cjk(written):
    code = int(written[2:], 16) if written.startswith("\\") else ord(written)
    return any(low <= code <= high for low, high in CJK_BLOCKS)


def cjk_ranges(source):
    """The CJK code points a module writes as escapes ("\\u4e00"), and its ranges of CJK characters ("一-龥")."""
    escapes = [m.group() for m in CJK_ESCAPE.finditer(source) if is_cjk(m.group())]
    ranges = [m.group() for m in RANGE.finditer(source) if is_cjk(m.group(1)) or is_cjk(m.group(2))]
    return escapes + ranges


def test_cjk_character_ranges_are_defined_in_one_module():
    found = {}
    for path in sorted((ROOT / "ipgsite").rglob("*.py")):
        if "migrations" not in path.parts and (literals := cjk_ranges(path.read_text(encoding="utf-8"))):
            found[path.relative_to(ROOT).as_posix()] = literals
    assert list(found) == ["ipgsite/ipg/text.py"], {path: found[path][:3] for path in found}
    assert {"\\u3040", "\\u4e00", "\\u3400", "\\uf900", "\\uff66"} <= set(found["ipgsite/ipg/text.py"])


def test_the_check_finds_ranges_written_either_way():
    assert cjk_ranges(r'KANA = re.compile("[\u3041-\u309f]")') == ["\\u3041", "\\u309f", "\\u3041-\\u309f"]
    assert cjk_ranges('HAN = re.compile("[一-龥]")') == ["一-龥"]
    assert cjk_ranges('WORD = re.compile(r"[A-Za-z0-9-]+")  # "face-down", 游戏行动失误~额外看牌') == []
