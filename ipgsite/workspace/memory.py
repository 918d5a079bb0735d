"""Translation memory: for a paragraph or note, the most similar source texts already translated into the target
language, anywhere in the IPG, with their stored translations.

Candidates come from the search app's text index (its rows hold every text, plain and folded, per language): FTS5's
trigram table on SQLite (ranked by bm25 over trigrams of the text), pg_trgm's GIN index under LIKE on PostgreSQL
(ranked by how many of the text's rarest words, or runs of CJK characters, they share). Only those few candidates
are compared in Python; `python_scan` compares every translated text instead, and is the baseline
`bench/memory_bench.py` measures against.
"""

import difflib
import re
from dataclasses import dataclass

from django.db import connection, transaction

from ipgsite.ipg import languages
from ipgsite.ipg.models import Note, Paragraph
from ipgsite.releases.diffing import CJK, diff_html, tokens

MAX_SUGGESTIONS = 3
CANDIDATES = 24  # compared in Python, from the index's best
MIN_SIMILARITY = 0.5
TRIGRAMS_ASKED = 32  # trigrams of the text looked up on SQLite (spread over the text): more cost more, find no better
MATCHES_RANKED = 120  # the index's best matches in any language, before those in the source language are kept
PROBES = (6, 16)  # on PostgreSQL: the words (or CJK runs of 4) looked up, and how many when too few texts share them
CJK_RUN = re.compile(f"[{CJK}]+")
PROBE = re.compile(rf"[{CJK}]+|[^\W{CJK}]{{4,}}")


@dataclass
class Suggestion:
    """A text already translated: its source, how similar it is, and its translation."""

    obj: object  # the Paragraph or Note
    source: str  # its text in the source language, plain
    translation: str  # its stored text in the target language (Markdown, as a translator typed it)
    similarity: float
    diff: str  # HTML: what differs between the suggestion's source (deleted) and this source (inserted)

    @property
    def exact(self):
        return self.similarity >= 1

    @property
    def percent(self):
        return int(self.similarity * 100)

    @property
    def section_number(self):
        return self.paragraph.section.number

    @property
    def paragraph(self):
        return self.obj.paragraph if isinstance(self.obj, Note) else self.obj

    @property
    def is_note(self):
        return isinstance(self.obj, Note)


# Reading the search app's rows and index: one small function per database, nothing else touches them.


def _stored_entry(obj, code):
    """(id, folded, plain text) of the search index's row for the object's text in one language, or None."""
    column = "note_id" if isinstance(obj, Note) else "paragraph_id"
    note = "" if isinstance(obj, Note) else " AND note_id IS NULL"
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT id, folded, text FROM search_entry WHERE {column} = %s AND language = %s{note}", [obj.pk, code]
        )
        return cursor.fetchone()


TRANSLATED = (
    "EXISTS (SELECT 1 FROM search_entry t WHERE t.paragraph_id = e.paragraph_id AND t.language = %s"
    " AND (t.note_id = e.note_id OR (t.note_id IS NULL AND e.note_id IS NULL)))"
)


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


def candidates(entry_id, folded, source_code, target_code, limit=CANDIDATES):
    """Ids of index rows in the source language, translated into the target language, that share most trigrams with
    `folded`, best first (the row `entry_id` itself excluded)."""
    if connection.vendor == "sqlite":
        grams = _trigrams(folded)
        if not grams:
            return []
        query = " OR ".join('"' + gram.replace('"', '""') + '"' for gram in grams)
        # First the index's best matches in any language, then those translated; when the best matches are not
        # translated (a section no one has translated yet), every match is ranked among the translated texts.
        ranked_first = (
            "SELECT e.id FROM (SELECT rowid AS id, rank FROM search_entry_trigrams WHERE search_entry_trigrams MATCH %s"
            " ORDER BY rank LIMIT %s) AS matches JOIN search_entry e ON e.id = matches.id"
            f" WHERE e.language = %s AND e.id != %s AND {TRANSLATED} ORDER BY matches.rank LIMIT %s"
        )
        every_match = (
            "SELECT e.id FROM search_entry_trigrams, search_entry e WHERE e.id = search_entry_trigrams.rowid"
            f" AND search_entry_trigrams MATCH %s AND e.language = %s AND e.id != %s AND {TRANSLATED}"
            " ORDER BY bm25(search_entry_trigrams) LIMIT %s"
        )
        with connection.cursor() as cursor:
            cursor.execute(ranked_first, [query, MATCHES_RANKED, source_code, entry_id, target_code, limit])
            found = [row[0] for row in cursor.fetchall()]
            if len(found) < limit:
                cursor.execute(every_match, [query, source_code, entry_id, target_code, limit])
                found = [row[0] for row in cursor.fetchall()]
            return found
    if connection.vendor == "postgresql":
        for count in PROBES:
            found = _sharing_probes(entry_id, _probes(folded, count), source_code, target_code, limit)
            if len(found) >= 2 * MAX_SUGGESTIONS:
                break
        return found
    return []


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


def _sharing_probes(entry_id, probes, source_code, target_code, limit):
    """On PostgreSQL: the texts that share most of the probes, each found through pg_trgm's index under LIKE."""
    if not probes:
        return []
    patterns = ["%" + connection.ops.prep_for_like_query(probe) + "%" for probe in probes]
    shared = " + ".join(["CASE WHEN folded LIKE %s THEN 1 ELSE 0 END"] * len(patterns))
    sql = (
        f"WITH e AS MATERIALIZED (SELECT id, language, paragraph_id, note_id, {shared} AS shared FROM search_entry"
        f" WHERE {' OR '.join(['folded LIKE %s'] * len(patterns))})"
        f" SELECT e.id FROM e WHERE e.language = %s AND e.id != %s AND {TRANSLATED}"
        " ORDER BY e.shared DESC, e.id LIMIT %s"
    )
    # As in search.backends: the planner would rather read every row than the trigram index.
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(sql, patterns + patterns + [source_code, entry_id, target_code, limit])
        return [row[0] for row in cursor.fetchall()]


def _rows(ids):
    """{id: (paragraph_id, note_id, folded, text)} for index rows."""
    if not ids:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT id, paragraph_id, note_id, folded, text FROM search_entry"
            f" WHERE id IN ({', '.join(['%s'] * len(ids))})",
            list(ids),
        )
        return {row[0]: row[1:] for row in cursor.fetchall()}


def _translated_rows(source_code, target_code):
    """Every index row in the source language whose text is translated into the target language (for the scan)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT e.id, e.paragraph_id, e.note_id, e.folded, e.text FROM search_entry e"
            f" WHERE e.language = %s AND {TRANSLATED}",
            [source_code, target_code],
        )
        return {row[0]: row[1:] for row in cursor.fetchall()}


# Similarity and suggestions


def similarity(a, b):
    """How alike two folded texts are, 0..1: words in Latin text, characters in Chinese and Japanese."""
    if a == b:
        return 1.0
    words_a, words_b = ([t for t in tokens(text) if not t.isspace()] for text in (a, b))
    return difflib.SequenceMatcher(None, words_a, words_b, autojunk=False).ratio()


def _best(folded, rows):
    scored = [(similarity(folded, row[2]), entry_id, row) for entry_id, row in rows.items()]
    scored = [s for s in scored if s[0] >= MIN_SIMILARITY]
    scored.sort(key=lambda s: (-s[0], s[1]))
    return scored[:MAX_SUGGESTIONS]


def _suggestions(scored, source_text, target_code):
    paragraph_ids = {row[0] for _s, _id, row in scored if row[1] is None}
    note_ids = {row[1] for _s, _id, row in scored if row[1] is not None}
    paragraphs = Paragraph.objects.select_related("section").in_bulk(paragraph_ids)
    notes = Note.objects.select_related("paragraph__section").in_bulk(note_ids)
    found = []
    for score, _entry_id, (paragraph_id, note_id, _folded, text) in scored:
        obj = notes.get(note_id) if note_id is not None else paragraphs.get(paragraph_id)
        if obj is None:
            continue
        field = "body" if note_id is not None else "text"
        translation = languages.translated(obj, field, target_code)
        if translation:
            found.append(Suggestion(obj, text, translation, score, "" if score >= 1 else diff_html(text, source_text)))
    return found


def suggest(obj, source_code, target_code):
    """Up to three Suggestions for translating the paragraph's or note's text from `source_code` into
    `target_code`, most similar first; exact matches (the same source text elsewhere) first of all."""
    entry = _stored_entry(obj, source_code)
    if entry is None or source_code == target_code:
        return []
    entry_id, folded, text = entry
    scored = _best(folded, _rows(candidates(entry_id, folded, source_code, target_code)))
    return _suggestions(scored, text, target_code)


def python_scan(obj, source_code, target_code):
    """The same suggestions from comparing every translated text in Python: the baseline, not for pages."""
    entry = _stored_entry(obj, source_code)
    if entry is None or source_code == target_code:
        return []
    entry_id, folded, text = entry
    rows = _translated_rows(source_code, target_code)
    rows.pop(entry_id, None)
    return _suggestions(_best(folded, rows), text, target_code)
