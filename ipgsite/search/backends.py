"""Where search finds and ranks: the entries kept in memory, the database's own text indexes (SQLite's FTS5,
PostgreSQL's pg_trgm and GIN), or a plain scan of every entry.

The backend is the class that SEARCH_BACKEND names. `Auto`, the default, is `KeptSearch`: every entry read once per
content version and its text indexed in memory (search/kept.py), so a search needs no round trip to the database; it
asks the database's indexes (`SQLiteSearch`, `PostgresSearch`, else `LikeScan`) only for translation memory. Those
backends can also be named to search the database itself, e.g. in a process that should not keep the entries. A
backend answers everything search and translation memory ask: one query's entries, counted and ranked
(`search_for`), whether groups of terms find anything (`which_find`, `which_held`), and the texts like a given one
(`similar`, through search/similar.py). Nothing outside this app reads the index's tables.

A query is a list of terms (search/expanding.py), each with its forms (as typed, in simplified characters, its
names in other languages) and its stem phrases. An entry matches a term if it contains any form, or its words
have any of the stem phrases; it matches the query if it matches every term. In the database each form is looked up
in an index:
- a form of 3 or more characters, in any script, as a substring of the folded text: FTS5's trigram
  tokenizer on SQLite, a pg_trgm GIN index under `LIKE` on PostgreSQL;
- a form of 1 or 2 CJK characters (占卜, 手札, 警): trigrams cannot find it, so it is looked up among
  the CJK characters and pairs of characters of each entry (`Entry.grams`): FTS5 with the unicode61
  tokenizer on SQLite, a GIN index on their stored `simple` tsvector on PostgreSQL;
- anything else (1 or 2 Latin characters, an emoji): `LIKE` on the entries themselves;
- a stem phrase ("scri two card"): on SQLite, in the same trigram table, among the entry's stems (" scri ", in
  spaces, so whole stems only); on PostgreSQL, the `english` tsvector of the text under `phraseto_tsquery`.

Ranking: text in the page's language first (the reader reads it; a query in another script rarely
matches it anyway); then by relevance: how densely the typed term and its names in the reader's language occur;
ties go to official text, then examples, then notes, then reading order. SQLite's indexes and the LIKE scan rank
in SQL; the kept entries and PostgreSQL's indexes rank the same way in memory (`Search.rank_key`).

Strings reach the database only as parameters; an FTS5 query is made of quoted phrases, one per form.
"""

import heapq
import json
import re
from collections import defaultdict
from dataclasses import dataclass
from typing import NamedTuple

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import connection, transaction
from django.utils.module_loading import import_string

from ipgsite.caching.versions import content_version
from ipgsite.ipg.models import Paragraph
from ipgsite.ipg.text import CJK  # as releases.diffing counts tokens: Han, kana, CJK punctuation, full-width forms

from .expanding import Term
from .kept import Kept, is_short_cjk
from .partial import holds_term
from .stemming import stem_phrase

TRIGRAM_TABLE = "search_entry_trigrams"
GRAM_TABLE = "search_entry_grams"
LIKE = ("e.folded LIKE %s", "e.folded LIKE %s ESCAPE '\\'")  # SQLite's LIKE has no escape character by default
STEMS_LIKE = ("e.stems LIKE %s", "e.stems LIKE %s ESCAPE '\\'")
# The order of kinds of text, each a number; a kind not named comes after (2).
KIND_ORDER = {"text": 0, "example": 1}  # ties: official text, then examples, then notes
PREFERRED = {
    "": {},
    "examples": {"example": 0, "text": 1},  # a situation: its examples
    "official": {"text": 0, "example": 0},  # a name: the text itself before commentary on it
}
OWN_LANGUAGE = "CASE WHEN e.language = %s THEN 0 ELSE 1 END"
MAX_PLACED_FORMS = 4


@dataclass(frozen=True)
class Ranking:
    """What comes first, after the page's language: the paragraph that defines the name searched for; the kind of
    text the query asks for (`PREFERRED`); the entries that hold the parts of a split phrase closest together; then
    the density of the terms."""

    prefer: str = ""
    defining: int | None = None  # the id of the paragraph that defines the term the query names
    phrases: tuple = ()  # CJK phrases split into parts (search/phrases.py): each a tuple of its parts' Terms


def fts_phrase(text):
    return '"' + text.replace('"', '""') + '"'


def is_short(form):
    return len(form) < 3


def like_pattern(text):
    return "%" + connection.ops.prep_for_like_query(text) + "%"


def kind_order(order):
    """SQL for a kind's place in `order` (KIND_ORDER, PREFERRED)."""
    if not order:
        return "0"
    return f"CASE e.kind {' '.join(f'WHEN {kind!r} THEN {at}' for kind, at in order.items())} ELSE 2 END"


def _bytes(sql):
    """The length of a text in bytes: stored, where counting its characters reads it all."""
    return f"LENGTH(CAST({sql} AS BLOB))" if connection.vendor == "sqlite" else f"OCTET_LENGTH({sql})"


def _density(terms, language):
    """SQL for how much of the text the terms' forms make up, and its parameters: the bytes that removing every
    form takes away, for the length of the text in bytes (10x faster than in characters on PostgreSQL)."""
    forms = [form for term in terms for form in term.ranked_forms(language)] or [""]
    removed = "e.folded"
    for _form in forms:
        removed = f"REPLACE({removed}, %s, '')"
    length = _bytes("e.folded")
    return f"({length} - {_bytes(removed)}) * 10000 / ({length} + 200)", forms


def _spread(phrases):
    """SQL for how far apart the parts of each split phrase are (the first place of each part's forms), summed,
    and its parameters."""
    sqlite = connection.vendor == "sqlite"
    place, most, least = ("INSTR", "MAX", "MIN") if sqlite else ("STRPOS", "GREATEST", "LEAST")
    spreads, params = [], []
    for parts in phrases:
        places, forms = [], []
        for part in parts:
            found = [f"{place}(e.folded, %s)" for _form in part.forms[:MAX_PLACED_FORMS]]
            places.append(found[0] if len(found) == 1 else f"{most}({', '.join(found)})")
            forms += part.forms[:MAX_PLACED_FORMS]
        spreads.append(f"({most}({', '.join(places)}) - {least}({', '.join(places)}))")
        params += forms * 2
    return (" + ".join(spreads) or "0"), params


def id_list(ids):
    """SQL for a list of ids, and its parameters: one parameter, however many ids."""
    ids = sorted(ids)
    if connection.vendor == "sqlite":
        return "SELECT value FROM json_each(%s)", [json.dumps(ids)]
    if connection.vendor == "postgresql":  # an array's text: a list of ints is adapted one by one, 10x slower
        return "SELECT UNNEST(%s::bigint[])", ["{" + ",".join(map(str, ids)) + "}"]
    return ", ".join(["%s"] * len(ids)) or "NULL", ids


FOUND_COLUMNS = "e.id, e.section_id, e.note_id, e.language, e.kind, e.text, e.folded, e.stems, p.key, e.paragraph_id"


class Found(NamedTuple):
    """One entry on the page of results."""

    id: int
    section_id: int
    note_id: int | None
    language: str
    kind: str
    text: str
    folded: str
    stems: str  # the stems of its words, " in spaces "
    key: str  # its paragraph's key
    paragraph_id: int
    size: int  # the folded text's length in bytes


class Search:
    """One query's search: which entries contain every term, how many, and one page of them in rank order.

    This one compares every entry with `LIKE` (the plain scan); its subclasses ask the database's text indexes."""

    indexed = False  # whether it must be run with the indexes forced (`with_indexes`, PostgreSQL)
    in_memory = False  # whether the page is ranked in memory (`rank_key`) rather than by the database
    known = None  # the ids that match, when known before the search
    ranked = 0  # the entries the last page was ranked among

    def __init__(
        self, terms, languages=(), kinds=(), page_language="en", ranking=None, subsets=None, ids=None, required=()
    ):
        """`subsets`: lists of terms; an entry then matches if it matches every term of any of them. `ids`: the
        entries to look among, known to match (`ids_holding`), which must also match the terms `required`. Either
        way, the terms ranking them are still `terms`."""
        self.terms = list(terms)
        self.ranking = ranking or Ranking()
        self.page_language = page_language
        self.tables = ["search_entry e"]
        self.where, self.params = [], []
        if languages:
            # Not `e.language IN`: the planner would read every entry in those languages through the index on
            # (paragraph, language) rather than look the text up in the text indexes.
            self.where.append(f"COALESCE(e.language, '') IN ({', '.join(['%s'] * len(languages))})")
            self.params += list(languages)
        if kinds:
            self.where.append(f"e.kind IN ({', '.join(['%s'] * len(kinds))})")
            self.params += list(kinds)
        self.rank, self.rank_params = _density(self.terms, page_language)
        self.spread, self.spread_params = _spread(self.ranking.phrases)
        if self.ranking.defining is None:
            self.defining, self.defining_params = "0", []
        else:
            self.defining = "CASE WHEN e.paragraph_id = %s AND e.note_id IS NULL THEN 0 ELSE 1 END"
            self.defining_params = [self.ranking.defining]
        if ids is not None:  # with the filters, as `ids_holding` found them; the terms required are checked here
            if required:
                entries = entries_of(ids).values()
                ids = [e.id for e in entries if all(holds_term(t, e.folded, e.stems) for t in required)]
            self.known = frozenset(ids)  # no query finds them again: `ids` answers with these
        elif subsets is None:
            self.look_up(self.terms)
        else:
            self.look_up_any(subsets)

    def look_up_any(self, subsets):
        """The entries that match every term of one of the subsets: the union of each subset's own search."""
        selects, params, self.indexed = [], [], False
        for subset in subsets:
            search = type(self)(subset)
            selects.append(f"SELECT e.id {search._from_where()}")
            params += search.params
            self.indexed = self.indexed or search.indexed
        self.where.insert(0, f"e.id IN ({' UNION '.join(selects)})")
        self.params[:0] = params

    def look_up(self, terms):
        sqlite = connection.vendor == "sqlite"
        for term in terms:
            conditions = [LIKE[sqlite]] * len(term.forms) + [STEMS_LIKE[sqlite]] * len(term.stems)
            self.where.append(f"({' OR '.join(conditions)})")
            self.params += [like_pattern(form) for form in term.forms]
            self.params += [like_pattern(f" {phrase} ") for phrase in term.stems]

    def _from_where(self):
        where = " AND ".join(self.where) or "1 = 1"
        return f"FROM {', '.join(self.tables)} WHERE {where}"

    def matching(self):
        """The ids of the entries that match (`ids`, with the indexes forced where they must be)."""
        return self.ids()

    def ids(self):
        """The ids of the entries that match."""
        if self.known is not None:
            return self.known
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT e.id {self._from_where()}", self.params)
            return frozenset(row[0] for row in cursor.fetchall())

    def page(self, offset, limit):
        """How many entries match, and those at [offset, offset + limit) in rank order, as `Found`.

        The indexes give the ids that match, and every entry is kept in memory per content version (`entries_of`):
        so the count reads no row, and the page is ranked among the entries that can reach it, those in the page's
        language, or every match when fewer than offset + limit are in it."""
        entries = entries_of(self.matching())
        own = {pk: entry for pk, entry in entries.items() if entry.language == self.page_language}
        ranked = own if len(own) >= offset + limit else entries
        self.ranked = len(ranked)
        return len(entries), self._ranked(ranked, offset, limit)

    def _ranked(self, entries, offset, limit):
        """These entries ({id: `Found`}) at [offset, offset + limit) in rank order: ranked by the database, which
        reads each one's text for the density (REPLACE) and the spread of split phrases; or in memory, in the same
        order (the tests compare them)."""
        if not entries:
            return []
        if self.in_memory:
            return self._ranked_in_memory(entries.values(), offset, limit)
        listed, id_params = id_list(entries)
        keys = [  # (SQL, its parameters, whether the highest comes first)
            (OWN_LANGUAGE, [self.page_language], False),
            (self.defining, self.defining_params, False),
            (kind_order(PREFERRED[self.ranking.prefer]), [], False),
            (self.spread, self.spread_params, False),
            (self.rank, self.rank_params, True),
            (kind_order(KIND_ORDER), [], False),
            ("e.id", [], False),
        ]
        keys = [key for key in keys if key[0] != "0"]  # the same for every entry (and a number would name a column)
        order = ", ".join(f"{sql}{' DESC' if desc else ''}" for sql, _params, desc in keys)
        sql = f"SELECT e.id FROM search_entry e WHERE e.id IN ({listed}) ORDER BY {order} LIMIT %s OFFSET %s"
        params = id_params + [param for _sql, key_params, _desc in keys for param in key_params] + [limit, offset]
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return [entries[pk] for (pk,) in cursor.fetchall()]

    def _ranked_in_memory(self, entries, offset, limit):
        """Those at [offset, offset + limit) by `rank_key`, which is read only for the entries that can reach the page:
        the first keys (the page's language, the definition, the kind preferred) are cheap and sort the entries into
        a few heads; the density and the spread of split phrases are worked out for the heads the page reaches."""
        head, key, wanted = self.rank_head(), self.rank_key(), offset + limit
        heads = defaultdict(list)
        for entry in entries:
            heads[head(entry)].append(entry)
        ranked = []
        for first in sorted(heads):
            ranked += heapq.nsmallest(wanted - len(ranked), heads[first], key=key)
            if len(ranked) >= wanted:
                break
        return ranked[offset:]

    def rank_head(self):
        """A function giving each entry the first of its rank keys: the page's language, then the paragraph that
        defines the term searched for, then the kind of text preferred (as `rank_key` orders them)."""
        language, defining, preferred = self.page_language, self.ranking.defining, PREFERRED[self.ranking.prefer]

        def head(entry):
            order = (entry.language != language) << 1 | (
                defining is not None and (entry.paragraph_id != defining or entry.note_id is not None)
            )
            return order << 2 | preferred.get(entry.kind, 2)

        return head

    def rank_key(self):
        """A function giving each entry one number whose order is the rank order, each key in bits of its own."""
        head, phrases = self.rank_head(), placed_forms(self.ranking.phrases)
        forms = [(form, len(form.encode())) for term in self.terms for form in term.ranked_forms(self.page_language)]
        forms = [(form, length) for form, length in forms if form]
        last = len(forms) - 1

        def key(entry):
            pk, _section, _note, _language, kind, _text, folded, _stems, _key, _paragraph, size = entry
            rest, removed = folded, 0  # the bytes that removing every form, one after another, takes away
            for at, (form, length) in enumerate(forms):
                found = rest.count(form)
                if found:
                    removed += found * length
                    if at < last:
                        rest = rest.replace(form, "")
            order = head(entry) << 32 | (placed_spread(folded, phrases) if phrases else 0)
            order = order << 14 | (10000 - removed * 10000 // (size + 200))
            return (order << 2 | KIND_ORDER.get(kind, 2)) << 48 | pk

        return key


_kept = {}  # content version -> `Kept`: every entry


def _read_entries(ids=None):
    sql = f"SELECT {FOUND_COLUMNS} FROM search_entry e JOIN {Paragraph._meta.db_table} p ON p.id = e.paragraph_id"
    params = []
    if ids is not None:
        listed, params = id_list(ids)
        sql += f" WHERE e.id IN ({listed})"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return {row[0]: Found(*row, len(row[6].encode())) for row in cursor.fetchall()}


def kept_entries():
    """Every entry (`Kept`), read once per content version, as the sections' names are. An entry is never changed in
    place (the index deletes rows and adds new ones), and its paragraph's key changes only with the content version.

    Inside a transaction, rows read may yet be rolled back, and an id given again: there the entries are known by the
    content version, the highest id and the count together."""
    version = content_version()
    if connection.in_atomic_block:
        with connection.cursor() as cursor:
            cursor.execute("SELECT MAX(id), COUNT(*) FROM search_entry")
            version = (version, *cursor.fetchone())
    known = _kept.get(version)
    if known is None:
        known = Kept(_read_entries())
        _kept.clear()
        _kept[version] = known
    return known


def entries_of(ids):
    """{id: `Found`} of the entries with these ids that exist: as kept (`kept_entries`), and any newer one read now."""
    known = kept_entries().entries
    found = {pk: known[pk] for pk in ids if pk in known}
    return found | _read_entries(ids - found.keys()) if len(found) < len(ids) else found


def _trigram_match(term):
    """The FTS5 expression for a term in the trigram table: any of its forms in the text, or its stems."""
    alternatives = [f"folded : {fts_phrase(form)}" for form in term.forms]
    alternatives += [f"stems : {fts_phrase(f' {phrase} ')}" for phrase in term.stems]
    return "(" + " OR ".join(alternatives) + ")"


def _gram_match(forms):
    return "(" + " OR ".join(fts_phrase(form) for form in forms) + ")"


class SQLiteQuery(Search):
    driven_by = None  # the condition that makes an FTS table drive the query, if one does
    unioned = None  # a term's ids from both FTS tables, as one condition

    def look_up(self, terms):
        by_trigrams = [t for t in terms if not any(is_short(f) for f in t.forms)]
        by_grams = [t for t in terms if t not in by_trigrams and all(is_short_cjk(f) for f in t.forms) and not t.words]
        mixed = [t for t in terms if t not in by_trigrams and t not in by_grams]
        driver = TRIGRAM_TABLE if by_trigrams else GRAM_TABLE if by_grams else None
        if driver:
            # The FTS table drives the query. It does not rank: bm25 reads the positions of every trigram of every
            # form in every match, and took up to twice as long as the density at 50x the corpus.
            matching = " AND ".join(map(_trigram_match, by_trigrams)) or " AND ".join(
                _gram_match(t.forms) for t in by_grams
            )
            self.tables = [driver, "search_entry e"]
            self.driven_by = f"e.id = {driver}.rowid AND {driver} MATCH %s"
            self.where.insert(0, self.driven_by)
            self.params.insert(0, matching)
        if by_trigrams and by_grams:
            self.where.append(f"e.id IN (SELECT rowid FROM {GRAM_TABLE} WHERE {GRAM_TABLE} MATCH %s)")
            self.params.append(" AND ".join(_gram_match(t.forms) for t in by_grams))
        for term in mixed:
            self._look_up_mixed(term)

    def ids(self):
        """The FTS tables alone answer a query of one term with no filter: every row they hold is an entry."""
        if self.driven_by is not None and self.where == [self.driven_by]:
            sql = f"SELECT rowid FROM {self.tables[0]} WHERE {self.tables[0]} MATCH %s"
        elif self.unioned is not None and self.where == [f"({self.unioned})"]:
            sql = self.unioned.removeprefix("e.id IN (").removesuffix(")")
        else:
            return super().ids()
        with connection.cursor() as cursor:
            cursor.execute(sql, self.params)
            return frozenset(row[0] for row in cursor.fetchall())

    def _look_up_mixed(self, term):
        """A term whose forms need different indexes: any of them, each where it can be found. The FTS tables'
        answers are one list of ids, which the query can start from (an OR of two lists it could not)."""
        selects, params = [], []
        long_forms = [f for f in term.forms if not is_short(f)]
        if long_forms or term.words:
            selects.append(f"SELECT rowid FROM {TRIGRAM_TABLE} WHERE {TRIGRAM_TABLE} MATCH %s")
            params.append(_trigram_match(Term(term.text, tuple(long_forms), term.words)))
        short_cjk = [f for f in term.forms if is_short_cjk(f)]
        if short_cjk:
            selects.append(f"SELECT rowid FROM {GRAM_TABLE} WHERE {GRAM_TABLE} MATCH %s")
            params.append(_gram_match(short_cjk))
        conditions = [f"e.id IN ({' UNION '.join(selects)})"] if selects else []
        self.unioned = conditions[0] if selects else None
        for form in term.forms:
            if is_short(form) and not is_short_cjk(form):
                conditions.append(LIKE[True])
                params.append(like_pattern(form))
        self.where.append(f"({' OR '.join(conditions)})")
        self.params += params


class PostgresQuery(Search):
    """Ranked in memory: on PostgreSQL reading every candidate's text again costs more than the density itself (1,900
    rows for 誘 at 50x the corpus: 14 ms in the database, 7-10 ms in memory)."""

    in_memory = True
    one_term_as_list = True
    listed = None  # a query of one term: the SQL for the ids each of its conditions finds, and its parameters

    def look_up(self, terms):
        """Each form of 3 or more characters is looked up in the pg_trgm index; a term's forms of 1 or 2 CJK
        characters, and its stem phrases, are each one tsquery of alternatives. A form no index holds (1 or 2 Latin
        characters) is compared on each entry.

        A query of one term is a list of ids, one index scan for each of its conditions: as one bitmap, every row
        found would be checked again against every condition, twice the time at 50x the corpus. The terms of a
        longer query are one bitmap, whose rows are those that have every term, fewer than any term's own."""
        self.indexed = False
        by_term = []
        for term in terms:
            conditions = []  # (SQL on one entry's columns, its parameters)
            for form in term.forms:
                if not is_short(form):
                    conditions.append(("folded LIKE %s", [like_pattern(form)]))
            short_cjk = [f for f in term.forms if is_short_cjk(f)]
            if short_cjk:
                queries = " || ".join(["plainto_tsquery('simple', %s)"] * len(short_cjk))
                conditions.append((f"grams_words @@ ({queries})", short_cjk))  # a stored tsvector: migration 0002
            words = list({stem_phrase(phrase): phrase for phrase in term.words}.values())
            if words:  # PostgreSQL stems them itself, the same way
                queries = " || ".join(["phraseto_tsquery('english', %s)"] * len(words))
                conditions.append((f"english_words @@ ({queries})", words))  # a stored tsvector: migration 0004
            others = [f for f in term.forms if is_short(f) and not is_short_cjk(f)]
            conditions += [("folded LIKE %s", [like_pattern(form)]) for form in others]
            self.indexed = self.indexed or not others
            by_term.append((conditions, not others))
        if len(by_term) == 1 and by_term[0][1] and self.one_term_as_list:
            branches, params = [], []
            latin = [(sql, p) for sql, p in by_term[0][0] if is_latin(sql, p)]
            for group in [latin] + [[c] for c in by_term[0][0] if c not in latin]:
                if group:  # Latin text is cheap to check again: its conditions share one bitmap, read once
                    branches.append("SELECT id FROM search_entry WHERE " + " OR ".join(sql for sql, _p in group))
                    params += [param for _sql, p in group for param in p]
            branches = " UNION ALL ".join(branches)
            self.listed = (branches, params)
            self.where.insert(0, f"e.id = ANY(ARRAY({branches}))")
            self.params[:0] = self.listed[1]
            return
        for conditions, _indexed in by_term:
            self.where.append(f"({' OR '.join('e.' + sql for sql, _params in conditions)})")
            self.params += [param for _sql, params in conditions for param in params]

    def ids(self):
        if self.listed is None or len(self.where) > 1:
            return super().ids()
        branches, params = self.listed
        with connection.cursor() as cursor:  # the ids each index finds, without reading the entries
            cursor.execute(branches, params)
            return frozenset(row[0] for row in cursor.fetchall())

    def _with_indexes(self, run):
        return with_indexes(run) if self.indexed else run()

    def matching(self):
        return self._with_indexes(self.ids)


def placed_forms(phrases):
    """For each split phrase, for each of its parts, the forms whose first place in a text is the part's place."""
    return tuple(tuple(tuple(part.forms[:MAX_PLACED_FORMS]) for part in parts) for parts in phrases)


def placed_spread(folded, phrases):
    """How far apart the parts of each phrase (`placed_forms`) are in this text, summed, as `_spread` computes it in
    SQL: each part's place is the furthest first place of its forms (0 where none is found)."""
    total = 0
    for parts in phrases:
        places = [
            folded.find(forms[0]) + 1 if len(forms) == 1 else max(folded.find(f) for f in forms) + 1 for forms in parts
        ]
        total += max(places) - min(places)
    return total


class PostgresExists(PostgresQuery):
    """Whether any entry matches: a term's conditions as one bitmap, whose first row answers, rather than a list of
    every id each condition finds (rechecked, at 50x the corpus, on thousands of rows for a word like "card")."""

    one_term_as_list = False


class KeptQuery(Search):
    """Found and ranked among the entries kept in memory (search/kept.py): no round trip to the database, but to read
    an entry newer than the content version."""

    in_memory = True

    def __init__(self, terms, languages=(), kinds=(), *args, **kwargs):
        self.languages, self.kinds = tuple(languages), tuple(kinds)
        super().__init__(terms, languages, kinds, *args, **kwargs)

    def look_up(self, terms):
        self.known = kept_entries().matching(terms, self.languages, self.kinds)

    def look_up_any(self, subsets):
        kept = kept_entries()
        self.known = frozenset().union(*(kept.matching(subset, self.languages, self.kinds) for subset in subsets))


def is_latin(sql, params):
    """Whether a condition reads Latin text only: the English tsvector, or `LIKE` a form with no CJK letter."""
    return sql.startswith("english_words") or (sql.startswith("folded LIKE") and not CJK_RUN.search(params[0]))


def with_indexes(run):
    """`run()` on PostgreSQL, made to use the indexes.

    The planner prices `@@` and trigram rechecks too low and would rather read every row (and detoast every
    tsvector): 10x slower at 50x the corpus. Within this transaction only, make it use the indexes; and never compile
    the query (JIT), which its inflated cost estimates would ask for, at 200 ms a query, nor start parallel workers
    for it."""
    if connection.vendor != "postgresql":
        return run()
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(
                "SET LOCAL enable_seqscan = off; SET LOCAL jit = off; SET LOCAL max_parallel_workers_per_gather = 0"
            )
        return run()


# The backends: what search and translation memory ask of the database, answered by one class that SEARCH_BACKEND
# names (ipgsite/settings.py), loaded by its dotted path as Django loads cache and database backends.


class Text(NamedTuple):
    """One entry of the index as translation memory compares it: a paragraph's text or a note's body in one language."""

    id: int
    paragraph_id: int
    note_id: int | None
    language: str
    folded: str
    text: str


TEXT_COLUMNS = ", ".join(f"e.{name}" for name in Text._fields)
# An entry whose paragraph's text, or whose note, is also indexed in the target language (the first parameter).
TRANSLATED = (
    "EXISTS (SELECT 1 FROM search_entry t WHERE t.paragraph_id = e.paragraph_id AND t.language = %s"
    " AND (t.note_id = e.note_id OR (t.note_id IS NULL AND e.note_id IS NULL)))"
)


def _texts(ids):
    """The entries with these ids, as `Text`s, in the order of the ids."""
    if not ids:
        return []
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {TEXT_COLUMNS} FROM search_entry e WHERE e.id IN ({', '.join(['%s'] * len(ids))})", list(ids)
        )
        found = {row[0]: Text(*row) for row in cursor.fetchall()}
    return [found[pk] for pk in ids if pk in found]


class LikeScan:
    """The plain scan: every entry read and compared, on any database. It finds exactly what the indexes find (the
    tests and the benchmarks measure them against it), and offers translation memory every translated text.

    It is the base of every backend: what a backend's indexes do not serve, it answers as the scan does."""

    vendors = None  # the databases (`connection.vendor`) whose tables it reads; None: any
    query = Search  # one query's search
    exists = Search  # one query's search, asked only whether any entry matches

    @classmethod
    def for_vendor(cls, vendor):
        """The backend to use on this database."""
        return cls()

    def search(
        self, terms, languages=(), kinds=(), page_language="en", ranking=None, subsets=None, ids=None, required=()
    ):
        """One query's search (`Search`): its entries counted and ranked, a page at a time."""
        return self.query(terms, languages, kinds, page_language, ranking, subsets, ids, required)

    def ids_holding(self, terms, languages=(), kinds=()):
        """For each term, the ids of the entries that match it."""
        searches = [self.query([term], languages, kinds) for term in terms]

        def run():
            return [search.ids() for search in searches]

        return with_indexes(run) if any(search.indexed for search in searches) else run()

    def which_find(self, groups, languages=(), kinds=(), page_language="en"):
        """For each list of terms, whether any entry matches every term of it: one query for them all."""
        searches = [self.exists(group, languages, kinds) for group in groups]
        if not searches:
            return []
        sql = "SELECT " + ", ".join(f"(SELECT 1 {search._from_where()} LIMIT 1)" for search in searches)
        params = [param for search in searches for param in search.params]

        def run():
            with connection.cursor() as cursor:
                cursor.execute(sql, params)
                return [found is not None for found in cursor.fetchone()]

        return with_indexes(run) if any(search.indexed for search in searches) else run()

    def which_held(self, forms):
        """The forms that some entry, in any language, contains: one query."""
        found = self.which_find([[Term(form, (form,))] for form in forms])
        return {form for form, held in zip(forms, found, strict=True) if held}

    def similar(self, entry, target, limit, wanted):
        """Translation memory's candidates for the `Text` `entry`: entries in its language, other than itself, whose
        text is also indexed in the `target` language, those most like it first. An index offers at most `limit`,
        and looks further when it finds fewer than `wanted`. The scan ranks nothing: it offers every one, for the
        caller to compare."""
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT {TEXT_COLUMNS} FROM search_entry e WHERE e.language = %s AND e.id != %s AND {TRANSLATED}",
                [entry.language, entry.id, target],
            )
            return [Text(*row) for row in cursor.fetchall()]


# Translation memory through the text indexes: which pieces of a text to look up.

TRIGRAMS_ASKED = 32  # trigrams of the text looked up on SQLite (spread over the text): more cost more, find no better
MATCHES_RANKED = 120  # the index's best matches in any language, before those in the source language are kept
PROBES = (6, 16)  # on PostgreSQL: the words (or CJK runs of 4) looked up, and how many when too few texts share them
CJK_RUN = re.compile(f"[{CJK}]+")
PROBE = re.compile(rf"[{CJK}]+|[^\W{CJK}]{{4,}}")


def _trigrams(folded):
    """Distinct trigrams without spaces, spread evenly over the text, at most TRIGRAMS_ASKED of them."""
    seen = []
    for start in range(len(folded) - 2):
        gram = folded[start : start + 3]
        if " " not in gram and gram not in seen:
            seen.append(gram)
    if len(seen) > TRIGRAMS_ASKED:
        step = len(seen) / TRIGRAMS_ASKED
        seen = [seen[int(i * step)] for i in range(TRIGRAMS_ASKED)]
    return seen


def _probes(folded, count):
    """Pieces of the text a similar text shares: its longest words (the rarest), or runs of 4 CJK characters
    spread over the text."""
    pieces = []
    for piece in PROBE.findall(folded):
        if CJK_RUN.fullmatch(piece):
            pieces += [piece[i : i + 4] for i in range(0, len(piece), 4) if len(piece[i : i + 4]) >= 3]
        else:
            pieces.append(piece)
    pieces = list(dict.fromkeys(pieces))
    if len(pieces) <= count:
        return pieces
    if CJK_RUN.search(folded):
        step = len(pieces) / count
        return [pieces[int(i * step)] for i in range(count)]
    return sorted(pieces, key=len, reverse=True)[:count]


class SQLiteSearch(LikeScan):
    """SQLite's FTS5 tables (migrations 0002 and 0004): the trigram table over the fold and the stems, the unicode61
    table over the CJK letters and pairs. Translation memory's candidates share most trigrams with the text (bm25)."""

    vendors = ("sqlite",)
    query = exists = SQLiteQuery

    def similar(self, entry, target, limit, wanted):
        grams = _trigrams(entry.folded)
        if not grams:
            return []
        query = " OR ".join(fts_phrase(gram) for gram in grams)
        # First the index's best matches in any language, then those translated; when the best matches are not
        # translated (a section no one has translated yet), every match is ranked among the translated texts.
        ranked_first = (
            f"SELECT e.id FROM (SELECT rowid AS id, rank FROM {TRIGRAM_TABLE} WHERE {TRIGRAM_TABLE} MATCH %s"
            " ORDER BY rank LIMIT %s) AS matches JOIN search_entry e ON e.id = matches.id"
            f" WHERE e.language = %s AND e.id != %s AND {TRANSLATED} ORDER BY matches.rank LIMIT %s"
        )
        every_match = (
            f"SELECT e.id FROM {TRIGRAM_TABLE}, search_entry e WHERE e.id = {TRIGRAM_TABLE}.rowid"
            f" AND {TRIGRAM_TABLE} MATCH %s AND e.language = %s AND e.id != %s AND {TRANSLATED}"
            f" ORDER BY bm25({TRIGRAM_TABLE}) LIMIT %s"
        )
        with connection.cursor() as cursor:
            cursor.execute(ranked_first, [query, MATCHES_RANKED, entry.language, entry.id, target, limit])
            found = [row[0] for row in cursor.fetchall()]
            if len(found) < limit:
                cursor.execute(every_match, [query, entry.language, entry.id, target, limit])
                found = [row[0] for row in cursor.fetchall()]
        return _texts(found)


class PostgresSearch(LikeScan):
    """PostgreSQL's GIN indexes (migrations 0002 and 0004): pg_trgm over the fold, a `simple` tsvector of the CJK
    letters and pairs, the `english` tsvector of the text. Translation memory's candidates share most of the text's
    rarest words (or runs of CJK characters), each found through pg_trgm under `LIKE`."""

    vendors = ("postgresql",)
    query = PostgresQuery
    exists = PostgresExists

    def similar(self, entry, target, limit, wanted):
        for count in PROBES:
            found = self._sharing_probes(entry, _probes(entry.folded, count), target, limit)
            if len(found) >= wanted:
                break
        return _texts(found)

    @staticmethod
    def _sharing_probes(entry, probes, target, limit):
        """The ids of the texts that share most of the probes, best first."""
        if not probes:
            return []
        patterns = [like_pattern(probe) for probe in probes]
        shared = " + ".join(["CASE WHEN folded LIKE %s THEN 1 ELSE 0 END"] * len(patterns))
        sql = (
            f"WITH e AS MATERIALIZED (SELECT id, language, paragraph_id, note_id, {shared} AS shared FROM search_entry"
            f" WHERE {' OR '.join(['folded LIKE %s'] * len(patterns))})"
            f" SELECT e.id FROM e WHERE e.language = %s AND e.id != %s AND {TRANSLATED}"
            " ORDER BY e.shared DESC, e.id LIMIT %s"
        )

        def run():
            with connection.cursor() as cursor:
                cursor.execute(sql, patterns + patterns + [entry.language, entry.id, target, limit])
                return [row[0] for row in cursor.fetchall()]

        return with_indexes(run)


class KeptSearch(LikeScan):
    """Every entry kept in memory per content version, with an index of its text (search/kept.py), and searched
    there: a search is one read of the content version, where the database's indexes take a round trip or more for
    each term. Translation memory's texts like a given one come from the database's own indexes (`database`)."""

    query = KeptQuery
    exists = KeptQuery

    def __init__(self, database=None):
        self.database = database or LikeScan()

    @classmethod
    def for_vendor(cls, vendor):
        return cls({"sqlite": SQLiteSearch, "postgresql": PostgresSearch}.get(vendor, LikeScan)())

    def which_find(self, groups, languages=(), kinds=(), page_language="en"):
        return [bool(self.exists(group, languages, kinds).ids()) for group in groups]

    def which_held(self, forms):
        """Each form looked up in the kept index itself: a phrase of 200 characters has 199 pairs to ask about."""
        kept = kept_entries()
        return {form for form in forms if kept.holding_form(form)}

    def similar(self, entry, target, limit, wanted):
        return self.database.similar(entry, target, limit, wanted)


class Auto(LikeScan):
    """The default: the entries kept in memory (`KeptSearch`), with the indexes of the database in use for
    translation memory: `SQLiteSearch` on SQLite, `PostgresSearch` on PostgreSQL, the plain scan on any other."""

    @classmethod
    def for_vendor(cls, vendor):
        return KeptSearch.for_vendor(vendor)


def backend_class(path):
    """The backend class a dotted path names, or ImproperlyConfigured saying what is wrong with it."""
    try:
        found = import_string(path)
    except ImportError as error:
        raise ImproperlyConfigured(
            f"SEARCH_BACKEND = {path!r} cannot be imported ({error}). Name a search backend class by its dotted path,"
            " e.g. 'ipgsite.search.backends.Auto'."
        ) from error
    if not (isinstance(found, type) and issubclass(found, LikeScan)):
        raise ImproperlyConfigured(
            f"SEARCH_BACKEND = {path!r} is not a search backend: a backend is a subclass of"
            " ipgsite.search.backends.LikeScan, e.g. 'ipgsite.search.backends.Auto'."
        )
    return found


def load(path, vendor):
    """The backend a dotted path names, for a database; ImproperlyConfigured if there is none, or if it cannot read
    that database's indexes."""
    found = backend_class(path)
    if found.vendors is not None and vendor not in found.vendors:
        raise ImproperlyConfigured(
            f"SEARCH_BACKEND = {path!r} reads the text indexes of {' or '.join(found.vendors)}, and the database is"
            f" {vendor}. Use 'ipgsite.search.backends.Auto', which follows the database, or"
            " 'ipgsite.search.backends.LikeScan', which works on any database."
        )
    return found.for_vendor(vendor)


_loaded = {}  # (dotted path, database vendor) -> backend


def backend(by_like=False):
    """The backend SEARCH_BACKEND names, for the database in use; or the plain scan."""
    path = "ipgsite.search.backends.LikeScan" if by_like else settings.SEARCH_BACKEND
    key = (path, connection.vendor)
    if key not in _loaded:
        _loaded[key] = load(path, connection.vendor)
    return _loaded[key]


def search_for(
    terms, languages=(), kinds=(), page_language="en", by_like=False, ranking=None, subsets=None, ids=None, required=()
):
    """One query's search, through the backend (or the plain scan)."""
    return backend(by_like).search(terms, languages, kinds, page_language, ranking, subsets, ids, required)


def ids_holding(terms, languages=(), kinds=(), by_like=False):
    """For each term, the ids of the entries that match it, as a frozenset."""
    return backend(by_like).ids_holding(terms, languages, kinds)


def which_find(groups, languages=(), kinds=(), page_language="en", by_like=False):
    """For each list of terms, whether any entry matches every term of it: one query for them all."""
    return backend(by_like).which_find(groups, languages, kinds, page_language)


def which_held(forms, by_like=False):
    """The forms that some entry, in any language, contains: one query."""
    return backend(by_like).which_held(forms)
