"""What the reader asked: the query cleaned, folded and split into terms, with the chosen filters."""

import re
import unicodedata
from dataclasses import dataclass, field

from ipgsite.ipg import languages

from .folding import clean, fold
from .models import Kind

MAX_LENGTH = 200  # characters; longer queries are cut, with a notice
MAX_TERMS = 8  # words searched, and terms once CJK phrases are split into parts (search/finding.py); beyond, a notice
PHRASE = re.compile(r'"([^"]*)"|“([^”]*)”|(\S+)')


def _strip_punctuation(term):
    """'card,' -> 'card'; '“违反游戏规则”' -> '违反游戏规则'; '***' -> ''."""
    start, end = 0, len(term)
    while start < end and unicodedata.category(term[start])[0] in "PS":
        start += 1
    while end > start and unicodedata.category(term[end - 1])[0] in "PS":
        end -= 1
    return term[start:end]


def split_terms(text):
    """Folded terms: words separated by spaces, or phrases in double quotes; surrounding punctuation dropped."""
    phrases = (match.group(match.lastindex) for match in PHRASE.finditer(text))
    terms = (" ".join(_strip_punctuation(fold(phrase)).split()) for phrase in phrases)
    return list(dict.fromkeys(term for term in terms if term))


def _page(raw):
    try:
        return min(max(int(raw), 1), 1000)
    except (TypeError, ValueError):
        return 1


@dataclass
class Query:
    text: str = ""  # as shown back to the reader: cleaned, cut to MAX_LENGTH
    terms: list = field(default_factory=list)
    languages: list = field(default_factory=list)  # empty: every language
    kinds: list = field(default_factory=list)  # empty: every kind
    page: int = 1
    shortened: bool = False  # the query was longer than MAX_LENGTH
    dropped_terms: int = 0  # terms beyond MAX_TERMS, ignored

    @classmethod
    def parse(cls, raw, language_codes=(), kinds=(), page=1):
        raw = raw or ""
        shortened = len(raw) > MAX_LENGTH
        text = clean(raw[:MAX_LENGTH]).strip()
        terms = split_terms(text)
        return cls(
            text=text,
            terms=terms[:MAX_TERMS],
            languages=[code for code in languages.CODES if code in set(language_codes)],
            kinds=[kind for kind in Kind.values if kind in set(kinds)],
            page=_page(page),
            shortened=shortened,
            dropped_terms=max(len(terms) - MAX_TERMS, 0),
        )

    @classmethod
    def from_request(cls, request):
        get = request.GET
        return cls.parse(get.get("q", ""), get.getlist("language"), get.getlist("kind"), get.get("page", 1))
