"""Where the database finds and ranks: SQLite's FTS5, or PostgreSQL's pg_trgm and GIN, by the database in use.

Every query term is looked up in an index:
- a term of 3 or more characters, in any script, as a substring of the folded text: FTS5's trigram
  tokenizer on SQLite, a pg_trgm GIN index under `LIKE` on PostgreSQL;
- a term of 1 or 2 CJK characters (占卜, 手札, 警): trigrams cannot find it, so it is looked up among
  the CJK characters and pairs of characters of each entry (`Entry.grams`): FTS5 with the unicode61
  tokenizer on SQLite, a GIN index on their stored `simple` tsvector on PostgreSQL;
- anything else (1 or 2 Latin characters, an emoji): `LIKE` on the entries themselves.

Ranking: text in the page's language first (the reader reads it; a query in another script rarely
matches it anyway); then by relevance: bm25 in SQLite's FTS5, how densely the terms occur on PostgreSQL
(and in the LIKE scan); ties go to official text, then examples, then notes, then reading order.

Strings reach the database only as parameters; an FTS5 query is made of quoted phrases, one per term.
"""

from django.db import connection, transaction

from .folding import is_cjk

TRIGRAM_TABLE = "search_entry_trigrams"
GRAM_TABLE = "search_entry_grams"
GRAMS_WORDS = "e.grams_words @@ plainto_tsquery('simple', %s)"  # a stored tsvector column: see migration 0002
LIKE = ("e.folded LIKE %s", "e.folded LIKE %s ESCAPE '\\'")  # SQLite's LIKE has no escape character by default
KIND_ORDER = "CASE e.kind WHEN 'text' THEN 0 WHEN 'example' THEN 1 ELSE 2 END"
OWN_LANGUAGE = "CASE WHEN e.language = %s THEN 0 ELSE 1 END"


def fts_phrase(term):
    return '"' + term.replace('"', '""') + '"'


def is_short_cjk(term):
    return len(term) < 3 and all(is_cjk(char) for char in term)


def like_pattern(term):
    return "%" + connection.ops.prep_for_like_query(term) + "%"


def _density(terms):
    """SQL for the terms' occurrences per length of text, and its parameters."""
    occurrences = " + ".join("(LENGTH(e.folded) - LENGTH(REPLACE(e.folded, %s, ''))) / " + str(len(t)) for t in terms)
    return f"({occurrences}) * 10000 / (LENGTH(e.folded) + 200)", list(terms)


class Search:
    """One query's search: which entries contain every term, how many, and one page of them in rank order."""

    by_like = False

    def __init__(self, terms, languages=(), kinds=(), page_language="en"):
        self.terms = list(terms)
        self.page_language = page_language
        self.tables = ["search_entry e"]
        self.where, self.params = [], []
        if languages:
            self.where.append(f"e.language IN ({', '.join(['%s'] * len(languages))})")
            self.params += list(languages)
        if kinds:
            self.where.append(f"e.kind IN ({', '.join(['%s'] * len(kinds))})")
            self.params += list(kinds)
        self.rank, self.rank_params = _density(self.terms)
        self.descending = True
        self.look_up(
            long_terms=[t for t in self.terms if len(t) >= 3],
            short_cjk=[t for t in self.terms if is_short_cjk(t)],
            others=[t for t in self.terms if len(t) < 3 and not is_short_cjk(t)],
        )

    def look_up(self, long_terms, short_cjk, others):
        for term in long_terms + short_cjk + others:
            self.where.append(LIKE[connection.vendor == "sqlite"])
            self.params.append(like_pattern(term))

    def _from_where(self):
        where = " AND ".join(self.where) or "1 = 1"
        return f"FROM {', '.join(self.tables)} WHERE {where}"

    def count(self):
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT COUNT(*) {self._from_where()}", self.params)
            return cursor.fetchone()[0]

    def page(self, offset, limit):
        """How many entries match, and the ids of those at [offset, offset + limit) in rank order: one query."""
        direction = "DESC" if self.descending else "ASC"
        sql = (
            f"SELECT id, COUNT(*) OVER () FROM (SELECT e.id AS id, {self.rank} AS rank, {KIND_ORDER} AS kind_order,"
            f" {OWN_LANGUAGE} AS own_language {self._from_where()}) AS matches"
            f" ORDER BY own_language, rank {direction}, kind_order, id LIMIT %s OFFSET %s"
        )
        with connection.cursor() as cursor:
            cursor.execute(sql, self.rank_params + [self.page_language] + self.params + [limit, offset])
            rows = cursor.fetchall()
        total = rows[0][1] if rows else (self.count() if offset else 0)
        return total, [row[0] for row in rows]


class LikeScan(Search):
    """Every entry read and compared: correct anywhere, and the baseline that the indexes are measured against."""

    by_like = True


class SQLiteSearch(Search):
    def look_up(self, long_terms, short_cjk, others):
        driver = TRIGRAM_TABLE if long_terms else GRAM_TABLE if short_cjk else None
        if driver:
            # The FTS table drives the query and ranks: bm25 is smaller for better matches.
            self.tables = [driver, "search_entry e"]
            self.where.insert(0, f"e.id = {driver}.rowid AND {driver} MATCH %s")
            self.params.insert(0, " AND ".join(fts_phrase(t) for t in (long_terms or short_cjk)))
            self.rank, self.rank_params, self.descending = f"bm25({driver})", [], False
        if long_terms and short_cjk:
            self.where.append(f"e.id IN (SELECT rowid FROM {GRAM_TABLE} WHERE {GRAM_TABLE} MATCH %s)")
            self.params.append(" AND ".join(fts_phrase(t) for t in short_cjk))
        super().look_up([], [], others)


class PostgresSearch(Search):
    def look_up(self, long_terms, short_cjk, others):
        for term in short_cjk:
            self.where.append(GRAMS_WORDS)
            self.params.append(term)
        super().look_up(long_terms, [], others)  # LIKE on `folded` uses the pg_trgm index for 3+ characters
        self.indexed = bool(long_terms or short_cjk)

    def page(self, offset, limit):
        if not self.indexed:
            return super().page(offset, limit)
        # The planner prices `@@` and trigram rechecks too low and would rather read every row (and detoast
        # every tsvector): 10x slower at 50x the corpus. Within this transaction only, make it use the indexes.
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL enable_seqscan = off")
            return super().page(offset, limit)


def search_for(terms, languages=(), kinds=(), page_language="en", by_like=False):
    """The search that fits the database in use (or the plain LIKE scan)."""
    if by_like:
        kind = LikeScan
    else:
        kind = {"sqlite": SQLiteSearch, "postgresql": PostgresSearch}.get(connection.vendor, LikeScan)
    return kind(terms, languages, kinds, page_language)
