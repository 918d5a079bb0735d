"""The reader's choice of languages for the compare view: `?langs=en,zh-hans,ja`."""

from . import languages

COOKIE = "ipg_langs"
ALIASES = {"zh": "zh-hans", "zh-cn": "zh-hans", "zh-hans-cn": "zh-hans", "jp": "ja", "en-us": "en", "en-gb": "en"}


def parse(raw):
    """The known languages named in `raw`, deduplicated, in the reader's order (at most all three)."""
    chosen = []
    for part in (raw or "").split(","):
        code = part.strip().lower().replace("_", "-")
        code = ALIASES.get(code, code)
        if code in languages.CODES and code not in chosen:
            chosen.append(code)
    return chosen


def serialize(codes):
    return ",".join(codes)
