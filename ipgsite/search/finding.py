"""Answering a query: the section it names, or the paragraphs and notes holding it, ranked and grouped by section.

When the query as typed finds nothing, a CJK phrase is split into parts (先手抓牌: 先手, 抓, 牌), then the entries
holding most of its words are shown, each saying which words it lacks."""

import re
from dataclasses import dataclass, field
from itertools import combinations, islice

from django.urls import get_script_prefix
from django.utils.translation import get_language

from ipgsite.caching.versions import read_once_per_version
from ipgsite.crosslinks.matching import canonical
from ipgsite.ipg import languages
from ipgsite.ipg import text as cjk
from ipgsite.ipg.models import Alias, Paragraph, Section
from ipgsite.terms.lookup import vocabulary

from .expanding import expand, names_of, simplified
from .folding import fold
from .kept import holds_term, kept_entries
from .models import Kind
from .query import MAX_TERMS
from .ranking import Ranking, Search
from .snippets import snippet
from .suggesting import Spellings, did_you_mean

PAGE_SIZE = 20
MAX_TRIES = 12  # groups of two words or more tried together for partial matches; beyond, each word alone
NUMBER = re.compile(r"^(?:(?:section|ipg|§)\s*)?(?P<number>\d+\.\d+)\s*[節节]?$|^appendix\s*(?P<appendix>[a-z])$")
QUOTES = "\"'“”‘’「」『』〔〕【】()（）[]"
TITLE_FIELDS = [f"title_{languages.field_suffix(code)}" for code in languages.CODES]
SMALL_WORDS = frozenset(  # never required for a partial match, never reported missing
    "a an and are as at be by for from has have he her his in into is it its of on or she that the their them then"
    " they this to was were when with 的 了 在 是 和 与 之 が を に は の で と も".split()
)
GRAMMAR = frozenset("的了在是和与之")  # one-character particles, not searched for in a split phrase
HIRAGANA = re.compile(f"[{cjk.HIRAGANA}{cjk.KANA_SOUND_MARKS}{cjk.HIRAGANA_MARKS}]")
KATAKANA = re.compile(f"[{cjk.KATAKANA}{cjk.KATAKANA_MIDDLE_DOT}{cjk.KATAKANA_MARKS}{cjk.KATAKANA_SMALL}]")
HAN = re.compile(f"[{cjk.ITERATION_MARK}{cjk.HAN}]")


# Sections by name or number


def _name_key(name):
    return canonical(fold(name).strip(QUOTES + " "))


_spellings = [None, None, None]  # the section names and the vocabulary last read, and their Spellings


def spellings_of(section_spellings, terms):
    """Names to suggest: the sections', then the termbase's names and variants."""
    if _spellings[0] is not section_spellings or _spellings[1] is not terms:
        combined = dict(section_spellings)
        for term in terms:
            for code, form in term.forms():  # a variant ("mulligans") suggests its term's name ("mulligan")
                combined.setdefault(_name_key(form), (term.names.get(code, form), code))
        _spellings[:] = [section_spellings, terms, Spellings(combined)]
    return _spellings[2]


class SectionNames:
    """The sections in reading order, and their names (titles, aliases) and numbers folded, kept per content
    version; and their addresses."""

    def __init__(self):
        self.sections, self.numbers, self.names, self.section_spellings, self._urls = _read_section_names()

    @staticmethod
    def read():
        sections = {section.pk: section for section in Section.objects.in_reading_order()}
        numbers, names, spellings = {}, {}, {}
        for section in sections.values():
            numbers[section.number.casefold()] = section.pk
            titles = [getattr(section, field) for field in TITLE_FIELDS]
            names[section.pk] = {_name_key(title) for title in titles if title}
            for code, title in zip(languages.CODES, titles, strict=True):
                if title:
                    spellings.setdefault(_name_key(title), (title, code))
                    # A title's last part is how judges say it: "Hidden Card Error" for "Game Play Error — …".
                    short = canonical(title).rsplit("—", 1)[-1].strip()
                    spellings.setdefault(_name_key(short), (short, code))
        for section_id, name, code in Alias.objects.order_by("pk").values_list("section_id", "name", "language"):
            names.setdefault(section_id, set()).add(_name_key(name))
            spellings.setdefault(_name_key(name), (name, code))
        return sections, numbers, names, spellings, {}

    def sections_of(self, pks):
        """The sections with these primary keys that exist, newer ones read now."""
        found = {pk: self.sections[pk] for pk in pks if pk in self.sections}
        return found | Section.objects.in_bulk(set(pks) - found.keys())

    def url_of(self, section):
        key = (section.pk, get_language(), get_script_prefix())
        if key not in self._urls:
            self._urls[key] = section.get_absolute_url()
        return self._urls[key]

    def named_by(self, text):
        """The section that `text` is the number or the name of, if any; in traditional Chinese characters too."""
        key = _name_key(text)
        pk = self._named_by_key(key)
        if pk is None and simplified(key):
            pk = self._named_by_key(_name_key(simplified(key)))
        return self.sections_of([pk]).get(pk) if pk is not None else None

    def _named_by_key(self, key):
        if match := NUMBER.match(key):
            return self.numbers.get(match.group("number") or match.group("appendix"))
        owners = [pk for pk, names in self.names.items() if key in names]
        return owners[0] if len(owners) == 1 else None

    def containing(self, terms):
        """Sections whose names contain every term: how a reader finds a section that has no text yet."""
        if not terms:
            return []
        pks = {
            pk
            for pk, names in self.names.items()
            if any(all(any(form in name for form in term.forms) for term in terms) for name in names)
        }
        return [section for section in self.sections.values() if section.pk in pks]


_read_section_names = read_once_per_version(SectionNames.read)


def _also_searched(terms):
    """What else the terms were searched as (simplified spelling, names in other languages), so that the reader sees
    why a result in another language or script came up."""
    also = {}
    for term in terms:
        if (converted := simplified(term.text)) is not None:
            also.setdefault(converted, "zh-hans")
        if term.named is not None:
            for code, name in term.named.names.items():
                if fold(name) not in (term.text, simplified(term.text)):
                    also.setdefault(name, code)
    return [(name, languages.html_lang(code)) for name, code in also.items()]


class Finds:
    """Whether each term alone finds anything with the query's filters, each term asked once."""

    def __init__(self, query, termbase):
        self.query, self.termbase, self.known = query, termbase, {}

    def holding(self, terms):
        """The ids of the entries matching each term (with the query's filters), by its text."""
        kept, languages, kinds = kept_entries(), self.query.languages, self.query.kinds
        holding = {term.text: kept.matching([term], languages, kinds) for term in terms}
        self.known.update((text, bool(ids)) for text, ids in holding.items())
        return holding

    def alone(self, term):
        if term.text not in self.known:
            self.holding([term])
        return self.known[term.text]

    def __call__(self, text):
        """Whether a single folded term, alone, finds anything."""
        return self.alone(expand([text], self.termbase)[0])


# CJK phrases split into parts


_cjk_names = [None, None]  # the vocabulary last read, and its folded names in CJK script


def cjk_names(termbase):
    if _cjk_names[0] is not termbase:
        forms = names_of(termbase).by_form if termbase else {}
        _cjk_names[:] = [termbase, frozenset(form for form in forms if cjk.CJK_LETTER.search(form))]
    return _cjk_names[1]


def script(char):
    if HIRAGANA.match(char):
        return "hiragana"
    if KATAKANA.match(char):
        return "katakana"
    return "han" if HAN.match(char) else "other"


def is_phrase(text):
    return len(text) >= 2 and cjk.CJK_LETTER.search(text) is not None and " " not in text


def pairs(text):
    """Every two Han characters next to each other in `text`."""
    return [text[at : at + 2] for at in range(len(text) - 1) if script(text[at]) == script(text[at + 1]) == "han"]


def parts(text, names, held, limit=None):
    """The first `limit` parts of a CJK phrase, read from left to right, each once; at each place: the longest of the
    termbase's `names` starting there (手札, 闇の腹心); else a run of katakana (カード) or of hiragana (grammar, left
    out: が, すぎる); else two Han characters if the index holds them together (`held`: 先手), else one (牌)."""
    longest = max(map(len, names), default=0)
    found, at = {}, 0

    def name_at(start):
        for end in range(min(len(text), start + longest), start, -1):
            if text[start:end] in names:
                return text[start:end]
        return None

    while at < len(text) and (limit is None or len(found) < limit):
        if name := name_at(at):
            found[name] = None
            at += len(name)
            continue
        kind = script(text[at])
        if kind == "han":
            end = at + 2 if text[at : at + 2] in held else at + 1
            if text[at:end] not in GRAMMAR:
                found[text[at:end]] = None
            at = end
            continue
        end = at + 1
        while end < len(text) and script(text[end]) == kind and name_at(end) is None:
            end += 1
        if kind != "hiragana" and any(char.isalnum() for char in text[at:end]):
            found[text[at:end]] = None
        at = end
    return list(found)


def split_phrases(terms, termbase, finds):
    """The terms, each CJK phrase that names nothing and finds nothing replaced by its parts; the phrases split, each
    a tuple of its parts' terms; and whether parts were left out. Each term keeps its first part, and the phrases
    share the rest of MAX_TERMS in the order typed (a phrase of 40 characters has 20 parts or so)."""
    phrasal = [term for term in terms if term.named is None and is_phrase(term.text) and not finds.alone(term)]
    kept = kept_entries()
    held = {pair for term in phrasal for pair in pairs(term.text) if kept.holding_form(pair)}
    out, split, dropped, spare = [], [], False, MAX_TERMS - len(terms)
    for term in terms:
        found = parts(term.text, cjk_names(termbase), held, MAX_TERMS + 1) if term in phrasal else []
        if len(found) > 1:
            dropped = dropped or len(found) > 1 + spare
            found = found[: 1 + spare]
            spare -= len(found) - 1
            split_into = [expand([part], termbase)[0] for part in found]
            out += [part for part in split_into if part not in out]
            if len(split_into) > 1:
                split.append(tuple(split_into))
        else:
            out.append(term)
    return out, tuple(split), dropped


# Partial matches: a judge's words the text lacks ("eight cards in opening hand": the IPG never says "opening")


def is_small(term):
    return term.text in SMALL_WORDS


@dataclass(frozen=True)
class Level:
    groups: tuple  # groups of Terms tried together: the results hold every term of one group
    terms: tuple  # the terms of every group, in the query's order: what ranks and marks the results
    ids: frozenset  # the entries holding the words of a group; its small words are checked after


def tries(terms, holding):
    """The levels of groups to try, largest first, made as they are asked for (never all 2^n groups): the words found,
    with the small words; then groups of them without, MAX_TRIES groups in all; then each word alone. `holding`: the
    ids of the entries holding each word (not small ones), by its text."""
    words = [term for term in terms if not is_small(term)]
    found = [term for term in words if holding[term.text]]
    missing = [term for term in words if term not in found]

    def level(groups):
        terms = tuple({term.text: term for group in groups for term in group}.values())
        ids = (frozenset.intersection(*(holding[t.text] for t in group if t.text in holding)) for group in groups)
        return Level(tuple(groups), terms, frozenset().union(*ids))

    if not found:
        return
    with_small = [term for term in terms if term not in missing]
    if with_small not in (terms, found):
        yield level([tuple(with_small)])
    left = MAX_TRIES
    for size in range(len(found), 1, -1):
        if not left:
            break
        groups = list(islice((group for group in combinations(found, size) if list(group) != terms), left))
        left -= len(groups)
        if groups:
            yield level(groups)
    yield level([(term,) for term in found])


def lacking(terms, folded, stems):
    """The words of the query (less small ones) that an entry lacks."""
    return [term.text for term in terms if not is_small(term) and not holds_term(term, folded, stems)]


def _defining_paragraph(term):
    if term.named is None or not term.named.defined_at:
        return None
    number, key = term.named.defined_at.split("#")
    return Paragraph.objects.filter(section__number=number, key=key).values_list("pk", flat=True).first()


def ranking_of(groups, split):
    """A name (one term of the termbase) ranks its definition, then official text first; a situation (several words,
    or a split phrase) its examples."""
    words = [[term for term in group if not is_small(term)] for group in groups]
    if split or any(len(group) > 1 for group in words):
        return Ranking(prefer="examples", phrases=split)
    if len(groups) == 1 and len(words[0]) == 1 and words[0][0].named is not None:
        return Ranking(prefer="official", defining=_defining_paragraph(words[0][0]))
    return Ranking()


# Results


@dataclass
class Hit:
    """One paragraph's text, or one note, in one language, that contains the query."""

    key: str  # the paragraph's key: its anchor
    language: str
    kind: str
    is_note: bool
    snippet: str
    url: str
    missing: list = field(default_factory=list)  # the query's words it lacks, when no entry has them all

    @property
    def kind_label(self):
        return Kind(self.kind).label

    @property
    def lang(self):
        return languages.html_lang(self.language)

    @property
    def language_name(self):
        return languages.name(self.language)


@dataclass
class Group:
    section: Section
    url: str
    hits: list = field(default_factory=list)


@dataclass
class Work:
    """What one search did, each count bounded whatever the query (the tests hold every search to it)."""

    terms: int = 0  # terms searched once CJK phrases are split into parts: at most MAX_TERMS
    searches: int = 0  # searches run: the query, its parts, then a level of partial matches at a time
    groups: int = 0  # groups of words tried for partial matches: at most 1 + MAX_TRIES + MAX_TERMS
    read: int = 0  # ids of the entries holding each word, read for partial matches: at most entries × MAX_TERMS
    ranked: int = 0  # entries ranked, over all searches: at most entries × searches
    snippets: int = 0  # results cut to a snippet: at most PAGE_SIZE


@dataclass
class Results:
    total: int = 0
    page: int = 1
    groups: list = field(default_factory=list)
    sections: list = field(default_factory=list)
    suggestions: list = field(default_factory=list)  # "Did you mean": [Suggestion]
    also: list = field(default_factory=list)  # what else the query's terms were searched as: [(name, language)]
    partial: bool = False  # no entry holds every word: these hold most of them
    dropped_parts: bool = False  # CJK phrases were split into more than MAX_TERMS parts: the first were searched
    work: Work = field(default_factory=Work)

    @property
    def has_next(self):
        return self.page * PAGE_SIZE < self.total

    @property
    def shown(self):
        return sum(len(group.hits) for group in self.groups)

    @property
    def first(self):
        return (self.page - 1) * PAGE_SIZE + 1


def find(query, page_language, names=None):
    """One page of the entries that contain every term of the query, grouped by section in rank order; or, when none
    does, of those that contain most of its terms."""
    names = names or SectionNames()
    termbase = vocabulary()
    finds = Finds(query, termbase)
    terms = expand(query.terms, termbase)
    results = Results(page=query.page, sections=names.containing(terms), also=_also_searched(terms))
    if not query.terms:
        return results

    def run(terms, ranking, ids=None, required=()):
        search = Search(terms, query.languages, query.kinds, page_language, ranking, ids, required)
        results.work.searches += 1
        results.total, page = search.page((query.page - 1) * PAGE_SIZE, PAGE_SIZE)
        results.work.ranked += search.ranked
        return page

    marked, split = terms, ()
    page = run(terms, ranking_of([terms], split))
    found_nothing = not results.total and not results.sections
    if not results.total:
        if len(terms) == 1:
            finds.known[terms[0].text] = False
        terms, split, results.dropped_parts = split_phrases(terms, termbase, finds)
        if split:
            marked = terms
            page = run(terms, ranking_of([terms], split))
    if not results.total and len(terms) > 1:
        holding = finds.holding([term for term in terms if not is_small(term)])  # "in", "to": checked after
        results.work.read += sum(map(len, holding.values()))
        for level in tries(terms, holding):
            results.work.groups += len(level.groups)
            if not level.ids:
                continue
            small = [term for term in level.terms if term.text not in holding]
            page = run(level.terms, ranking_of(level.groups, split), level.ids, small)
            if results.total or page:
                marked, results.partial = level.terms, True
                break
    results.suggestions = did_you_mean(query, spellings_of(names.section_spellings, termbase), found_nothing, finds)
    alone = all(is_small(term) for term in marked)  # a query of small words only marks them wherever they are
    forms = [form for term in marked if alone or not is_small(term) for form in term.forms]
    words = [form for term in marked if not alone and is_small(term) for form in term.forms]
    stems = {stem for term in marked for phrase in term.stems for stem in phrase.split()}
    results.work.terms, results.work.snippets = len(terms), len(page)
    sections, by_section = names.sections_of({found.section_id for found in page}), {}
    for found in page:
        if (section := sections.get(found.section_id)) is None:  # deleted since the page was read
            continue
        group = by_section.setdefault(section.pk, Group(section=section, url=names.url_of(section)))
        # Only the stems its words have: looking for the others would read every word of it.
        marks = snippet(found.text, forms, found.language, found.folded, stems.intersection(found.stems.split()), words)
        group.hits.append(
            Hit(
                key=found.key,
                language=found.language,
                kind=found.kind,
                is_note=found.note_id is not None,
                snippet=marks,
                url=f"{group.url}#{found.key}",
                missing=lacking(terms, found.folded, found.stems) if results.partial else [],
            )
        )
    results.groups = list(by_section.values())
    return results
