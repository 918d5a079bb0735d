"""The termbase as other apps read it: every term's forms, and the terms a text names.

`vocabulary()` is cached per content version (`ipgsite.caching.versions`), so it is cheap to call per request and
is read again from the database after any write of content.
"""

import re
from dataclasses import dataclass, field

from ipgsite.caching.versions import read_once_per_version
from ipgsite.ipg import languages
from ipgsite.ipg.text import HAN, ITERATION_MARK, KANA_CHAR, KATAKANA, KATAKANA_MARKS, word_pattern

# The runs of one script a Japanese compound word is written in: Han (誘発型能力), katakana (ライブラリー).
KANJI = re.compile(f"[{HAN}{ITERATION_MARK}]")
KATAKANA_LETTER = re.compile(f"[{KATAKANA}{KATAKANA_MARKS}]")


@dataclass(frozen=True)
class TermForms:
    key: str  # "mulligan"
    kind: str  # "infraction" | "game-term" | "card"
    names: dict  # language code ("en", "zh-hans", "ja") -> name; absent where missing
    variants: dict  # language code -> other forms (inflections, abbreviations, former names)
    defined_at: str | None  # "2.3#definition-1"
    not_in: dict = field(default_factory=dict)  # language code -> phrases in which a form means something else

    def forms(self):
        """(language, form) for every name and variant."""
        for code in languages.CODES:
            if code in self.names:
                yield code, self.names[code]
            for form in self.variants.get(code, ()):
                yield code, form


def form_pattern(form):
    """A form as a regular expression: CJK as a substring, Latin as whole words (a hyphen joins two words into one:
    "down" is no word of "face-down"); any run of spaces matches. The terms compile it to match in any case."""
    return word_pattern(form, hyphen_joins=True)


def _alternatives(forms):
    """One regular expression for these forms, the longest tried first."""
    ordered = sorted(set(forms), key=lambda f: (-len(f), f))
    return re.compile("|".join(form_pattern(f) for f in ordered), re.IGNORECASE) if ordered else None


def inside_compound(text, start, end):
    """Whether text[start:end] is the head of a longer Japanese word: its last character and the one after it are of
    the same script, Han or katakana (誘発 in 誘発型能力, 変異 in 変異能力). A form that ends in hiragana ends a
    word there (引いた, 公開された). What comes before is not read: Japanese writes one word after another in Han
    with no mark between them (本来 占術, 1枚 引く)."""
    if end >= len(text):
        return False
    return any(script.match(text[end - 1]) and script.match(text[end]) for script in (KANJI, KATAKANA_LETTER))


class Matcher:
    """Finds the terms in a text. A term never matches inside a longer word, nor inside a longer term's form, which
    wins ("再调度失误" over "再调度"), nor inside one of its `not_in` phrases ("公開領域" in "非公開領域"). In a
    Japanese text (one with kana) the longest word wins too: a form that is the head of a longer compound, which no
    term names whole, is no occurrence (誘発 in 誘発型能力): a compound is marked whole or not at all."""

    def __init__(self, terms):
        self.owner = {}
        for term in terms:
            for _code, form in term.forms():
                self.owner.setdefault(form.casefold(), term)
        self.regex = _alternatives(form for term in terms for _code, form in term.forms())
        self.not_in = {
            term.key: _alternatives(phrase for phrases in term.not_in.values() for phrase in phrases)
            for term in terms
            if term.not_in
        }

    def finditer(self, text, language=None):
        """(start, end, words, TermForms) for each occurrence, in order. `language`: the text's, when it is known;
        else a text with kana is Japanese."""
        if self.regex is None:
            return
        excepted = {key: [m.span() for m in regex.finditer(text)] for key, regex in self.not_in.items()}
        japanese = language == "ja" if language else KANA_CHAR.search(text) is not None
        for match in self.regex.finditer(text):
            term = self.owner.get(" ".join(match.group().split()).casefold())
            if term is None:
                continue
            if any(start <= match.start() and match.end() <= end for start, end in excepted.get(term.key, ())):
                continue
            if japanese and inside_compound(text, match.start(), match.end()):
                continue
            yield match.start(), match.end(), match.group(), term

    def spans(self, text, language=None):
        """(start, end, TermForms) of each occurrence in `text`, as `ipg.spans.find` takes them."""
        for start, end, _words, term in self.finditer(text, language):
            yield start, end, term


def read_terms():
    """Every term's forms, read from the database now: in a batch of writes, the cached `vocabulary()` may not have
    its writes yet."""
    from .models import Term

    terms = []
    for term in Term.objects.in_glossary_order().select_related("defined_in__section"):
        names = {code: name for code in languages.CODES if (name := term.name_in(code))}
        variants = {}
        for code in languages.CODES:
            forms = tuple(dict.fromkeys(term.variants_in(code) + term.inflections_in(code)))
            if forms:
                variants[code] = forms
        defined = term.defined_in
        terms.append(
            TermForms(
                key=term.key,
                kind=term.kind,
                names=names,
                variants=variants,
                defined_at=f"{defined.section.number}#{defined.key}" if defined else None,
                not_in={code: tuple(phrases) for code in languages.CODES if (phrases := term.not_in_phrases(code))},
            )
        )
    return tuple(terms)


def _read():
    terms = read_terms()
    return terms, Matcher(terms)


_current = read_once_per_version(_read)


def vocabulary() -> tuple[TermForms, ...]:
    """Every term, cheap to call per request (cached, invalidated when content changes)."""
    return _current()[0]


def matcher():
    return _current()[1]


def terms_in(text: str) -> list[TermForms]:
    """The terms whose name or variant occurs in `text`: CJK as substrings, Latin on word boundaries,
    case-insensitive."""
    found = {}
    for _start, _end, _words, term in matcher().finditer(text or ""):
        found.setdefault(term.key, term)
    return list(found.values())
