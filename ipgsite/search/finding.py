"""Answering a query: the section it names, or the paragraphs and notes holding it, ranked and grouped by section."""

import re
from dataclasses import dataclass, field

from django.db import connection
from django.urls import get_script_prefix
from django.utils.translation import get_language

from ipgsite.caching.versions import content_version
from ipgsite.crosslinks.matching import canonical
from ipgsite.ipg import languages
from ipgsite.ipg.models import Alias, Paragraph, Section
from ipgsite.ipg.text import CJK_LETTER
from ipgsite.terms.lookup import vocabulary

from . import phrases
from .expanding import expand, names_of, simplified
from .folding import fold
from .models import Kind
from .partial import is_small, lacking, tries
from .query import MAX_TERMS
from .ranking import Ranking, Search, ids_holding, which_find, which_held
from .snippets import snippet
from .suggesting import Spellings, did_you_mean

PAGE_SIZE = 20
NUMBER = re.compile(r"^(?:(?:section|ipg|§)\s*)?(?P<number>\d+\.\d+)\s*[節节]?$|^appendix\s*(?P<appendix>[a-z])$")
QUOTES = "\"'“”‘’「」『』〔〕【】()（）[]"


# Sections by name or number


def _name_key(name):
    return canonical(fold(name).strip(QUOTES + " "))


TITLE_FIELDS = [f"title_{languages.field_suffix(code)}" for code in languages.CODES]


def _folded_names(sections, aliases):
    numbers, names, spellings = {}, {}, {}
    for section in sections:
        numbers[section.number.casefold()] = section.pk
        titles = [getattr(section, field) for field in TITLE_FIELDS]
        names[section.pk] = {_name_key(title) for title in titles if title}
        for code, title in zip(languages.CODES, titles, strict=True):
            if title:
                spellings.setdefault(_name_key(title), (title, code))
                # A title's last part is how judges say it: "Hidden Card Error" for "Game Play Error — …".
                short = canonical(title).rsplit("—", 1)[-1].strip()
                spellings.setdefault(_name_key(short), (short, code))
    for section_id, name, code in aliases:
        names.setdefault(section_id, set()).add(_name_key(name))
        spellings.setdefault(_name_key(name), (name, code))
    return numbers, names, spellings


_section_names = {}  # content version -> what SectionNames reads
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
    """Every section's names (titles in each language, aliases, former names) and numbers, folded for comparison;
    and the sections themselves, in reading order, with their addresses.

    Read on every search, so read once per content version (`ipgsite.caching.versions`, which every write of
    sections and aliases changes), as `terms.lookup.vocabulary()` is.
    """

    def __init__(self):
        version = content_version()
        known = _section_names.get(version)
        if known is None:
            known = self._read()
            if not connection.in_atomic_block:  # rows read in a transaction may yet be rolled back
                _section_names.clear()
                _section_names[version] = known
        self.sections, self.numbers, self.names, self.section_spellings, self._urls = known

    @staticmethod
    def _read():
        sections = {section.pk: section for section in Section.objects.in_reading_order()}
        aliases = tuple(Alias.objects.order_by("pk").values_list("section_id", "name", "language"))
        return (sections, *_folded_names(tuple(sections.values()), aliases), {})

    def sections_of(self, pks):
        """The sections with these primary keys that exist: as read since the content last changed, or read now
        if they are newer."""
        found = {pk: self.sections[pk] for pk in pks if pk in self.sections}
        return found | Section.objects.in_bulk(set(pks) - found.keys())

    def url_of(self, section):
        """Its address, reversed once per section and language rather than once per result."""
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
        match = NUMBER.match(key)
        if match:
            pk = self.numbers.get(match.group("number") or match.group("appendix"))
        else:
            owners = [pk for pk, names in self.names.items() if key in names]
            pk = owners[0] if len(owners) == 1 else None
        return pk

    def containing(self, terms):
        """Sections whose names contain every term (any of its forms): how a reader finds a section that has no
        text yet."""
        if not terms:
            return []
        pks = {
            pk
            for pk, names in self.names.items()
            if any(all(any(form in name for form in term.forms) for term in terms) for name in names)
        }
        return [section for section in self.sections.values() if section.pk in pks]


def _also_searched(terms):
    """Each term's spelling in simplified characters and its term's names in every language, less what was typed:
    so the reader sees why a result in another language or script came up."""
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
    """Whether a term alone, or terms together, find anything with the query's filters; each term asked once, and
    the terms of a query all in one question."""

    def __init__(self, query, termbase):
        self.query, self.termbase = query, termbase
        self.known = {}

    def together(self, groups):
        """For each list of terms, whether any entry holds them all."""
        return which_find(groups, self.query.languages, self.query.kinds)

    def ask(self, terms):
        unknown = list({term.text: term for term in terms if term.text not in self.known}.values())
        for term, found in zip(unknown, self.together([[term] for term in unknown]), strict=True):
            self.known[term.text] = found

    def holding(self, terms):
        """For each term, the ids of the entries that match it (with the query's filters), by its text; and whether
        each finds anything, known from then on."""
        terms = list({term.text: term for term in terms}.values())
        found = ids_holding(terms, self.query.languages, self.query.kinds)
        holding = {term.text: ids for term, ids in zip(terms, found, strict=True)}
        self.known.update((text, bool(ids)) for text, ids in holding.items())
        return holding

    def term(self, term):
        self.ask([term])
        return self.known[term.text]

    def __call__(self, text):
        """Whether a single folded term, alone, finds anything."""
        return self.term(expand([text], self.termbase)[0])


_cjk_names = [None, None]  # the vocabulary last read, and its folded names in CJK script


def cjk_names(termbase):
    if _cjk_names[0] is not termbase:
        forms = names_of(termbase).by_form if termbase else {}
        _cjk_names[:] = [termbase, frozenset(form for form in forms if CJK_LETTER.search(form))]
    return _cjk_names[1]


def split_phrases(terms, termbase, finds):
    """The terms, with each CJK phrase that names nothing and finds nothing as typed replaced by its parts
    (search/phrases.py); the phrases split, each a tuple of its parts' terms; and whether parts were left out.

    At most MAX_TERMS terms in all: each term keeps at least its first part, and the phrases share what is left in
    the order they were typed; the parts beyond are not searched (a phrase of 40 characters has 20 parts or so)."""
    phrasal = [term for term in terms if term.named is None and phrases.is_phrase(term.text)]
    finds.ask(phrasal)
    phrasal = [term for term in phrasal if not finds.known[term.text]]
    held = which_held(list({pair for term in phrasal for pair in phrases.pairs(term.text)}))
    out, split, dropped, spare = [], [], False, MAX_TERMS - len(terms)
    for term in terms:
        found = phrases.parts(term.text, cjk_names(termbase), held, MAX_TERMS + 1) if term in phrasal else []
        if len(found) > 1:
            dropped = dropped or len(found) > 1 + spare
            found = found[: 1 + spare]
            spare -= len(found) - 1
            parts = [expand([part], termbase)[0] for part in found]
            out += [part for part in parts if part not in out]
            if len(parts) > 1:
                split.append(tuple(parts))
        else:
            out.append(term)
    return out, tuple(split), dropped


def _defining_paragraph(term):
    """The id of the paragraph that defines a term of the termbase, if it names one."""
    if term.named is None or not term.named.defined_at:
        return None
    number, key = term.named.defined_at.split("#")
    return Paragraph.objects.filter(section__number=number, key=key).values_list("pk", flat=True).first()


def ranking_of(groups, split):
    """How to rank the entries holding one of the groups of terms: a name (one term of the termbase) by its
    definition, then official text before commentary; a situation (several words, or a split phrase) by its
    examples."""
    words = [[term for term in group if not is_small(term)] for group in groups]
    if split or any(len(group) > 1 for group in words):
        return Ranking(prefer="examples", phrases=split)
    if len(groups) == 1 and len(words[0]) == 1 and words[0][0].named is not None:
        return Ranking(prefer="official", defining=_defining_paragraph(words[0][0]))
    return Ranking()


# Paragraphs and notes


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
    """What one search did, each count bounded by design whatever the query (the tests hold every search to it)."""

    terms: int = 0  # terms searched once CJK phrases are split into parts: at most MAX_TERMS
    searches: int = 0  # searches run: the query, its parts, then a level of partial matches at a time
    groups: int = 0  # groups of words tried for partial matches: at most 1 + MAX_TRIES + MAX_TERMS
    read: int = 0  # ids of the entries holding each word, read for partial matches: at most entries × MAX_TERMS
    ranked: int = 0  # entries ranked, over all searches: at most entries × searches
    snippets: int = 0  # results cut to a snippet: at most PAGE_SIZE

    def ran(self, search, offset):
        """`search.page()` at this offset, counted."""
        self.searches += 1
        total, page = search.page(offset, PAGE_SIZE)
        self.ranked += search.ranked
        return total, page


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
    """The entries that contain every term of the query, one page of them, grouped by section in rank order; or,
    when none does, those that contain most of its terms, each saying which it lacks."""
    names = names or SectionNames()
    termbase = vocabulary()
    finds = Finds(query, termbase)
    terms = expand(query.terms, termbase)
    results = Results(page=query.page, sections=names.containing(terms), also=_also_searched(terms))
    if not query.terms:
        return results
    marked, split = terms, ()
    ranking = ranking_of([terms], split)
    search = Search(terms, query.languages, query.kinds, page_language, ranking)
    results.total, page = results.work.ran(search, (query.page - 1) * PAGE_SIZE)
    found_nothing = not results.total and not results.sections
    if not results.total:
        if len(terms) == 1:
            finds.known[terms[0].text] = False
        terms, split, results.dropped_parts = split_phrases(terms, termbase, finds)
        if split:
            marked = terms
            ranking = ranking_of([terms], split)
            search = Search(terms, query.languages, query.kinds, page_language, ranking)
            results.total, page = results.work.ran(search, (query.page - 1) * PAGE_SIZE)
    if not results.total and len(terms) > 1:
        holding = finds.holding([term for term in terms if not is_small(term)])  # "in", "to": checked after
        results.work.read += sum(map(len, holding.values()))
        _missing, levels = tries(terms, holding)
        for level in levels:  # the words with the small ones, groups of them (MAX_TRIES in all), each word alone
            results.work.groups += len(level.groups)
            if not level.ids:
                continue
            rest = [term for term in level.terms if term.text not in holding]  # small words, checked on the entries
            ranking = ranking_of(level.groups, split)
            search = Search(level.terms, query.languages, query.kinds, page_language, ranking, level.ids, rest)
            results.total, page = results.work.ran(search, (query.page - 1) * PAGE_SIZE)
            if results.total or page:
                marked, results.partial = level.terms, True
                break
    spellings = spellings_of(names.section_spellings, termbase)
    results.suggestions = did_you_mean(query, spellings, found_nothing, finds=finds)
    alone = all(is_small(term) for term in marked)  # a query of small words only marks them wherever they are
    forms = [form for term in marked if alone or not is_small(term) for form in term.forms]
    words = [form for term in marked if not alone and is_small(term) for form in term.forms]
    stems = {stem for term in marked for phrase in term.stems for stem in phrase.split()}
    results.work.terms = len(terms)
    results.work.snippets = len(page)
    sections, by_section = names.sections_of({found.section_id for found in page}), {}
    for found in page:
        if found.section_id not in sections:  # deleted since the page was read
            continue
        if found.section_id not in by_section:
            section = sections[found.section_id]
            by_section[found.section_id] = Group(section=section, url=names.url_of(section))
        group = by_section[found.section_id]
        group.hits.append(
            Hit(
                key=found.key,
                language=found.language,
                kind=found.kind,
                is_note=found.note_id is not None,
                # Only the stems its words have: looking for the others would read every word of it.
                snippet=snippet(
                    found.text, forms, found.language, found.folded, stems.intersection(found.stems.split()), words
                ),
                url=f"{group.url}#{found.key}",
                missing=lacking(terms, found.folded, found.stems) if results.partial else [],
            )
        )
    results.groups = list(by_section.values())
    return results
