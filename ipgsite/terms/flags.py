"""Translations that miss a term: the source text uses a term, the target text does not use the termbase's name
for it in the target language (or any of its forms). The translate page flags them and offers the name; the
dashboard counts them per section and language."""

from dataclasses import dataclass

from ipgsite.ipg import languages
from ipgsite.ipg.models import Paragraph

from . import lookup
from .models import Occurrence, Term


@dataclass(frozen=True)
class Flag:
    key: str  # the term's key
    source_words: str  # as the source text has it
    source_language: str
    name: str  # the termbase's name in the target language, offered to the translator
    language: str


def source_language(texts):
    """The language a translation is made from: English where the paragraph has it, else the first it has."""
    return next((code for code in languages.CODES if texts.get(code)), None)


def flags_in(source_text, source_code, target_text, target_code):
    """The terms `source_text` uses whose `target_code` name `target_text` lacks (none for a missing target)."""
    if not target_text or not source_text or source_code == target_code:
        return []
    matcher = lookup.matcher()
    in_target = {term.key for _s, _e, _w, term in matcher.finditer(target_text)}
    flags = {}
    for _start, _end, words, term in matcher.finditer(source_text):
        name = term.names.get(target_code)
        if name and term.key not in in_target and term.key not in flags:
            flags[term.key] = Flag(term.key, words, source_code, name, target_code)
    return list(flags.values())


def flag_counts():
    """{(section id, language): the number of flags} over every paragraph's stored occurrences, each paragraph's
    source being `source_language` of its texts."""
    used = {}
    for paragraph_id, code, term_id in Occurrence.objects.filter(note__isnull=True).values_list(
        "paragraph_id", "language", "term_id"
    ):
        used.setdefault(paragraph_id, {}).setdefault(code, set()).add(term_id)
    name_columns = [languages.column("name", code) for code in languages.CODES]
    named = {
        pk: {code for code, name in zip(languages.CODES, names, strict=True) if name}
        for pk, *names in Term.objects.values_list("pk", *name_columns)
    }
    text_columns = [languages.column("text", code) for code in languages.CODES]
    counts = {}
    for pk, section_id, *texts in Paragraph.objects.filter(pk__in=used).values_list("pk", "section_id", *text_columns):
        texts = dict(zip(languages.CODES, texts, strict=True))
        source = source_language(texts)
        for code in languages.CODES:
            if code == source or not texts.get(code):
                continue
            missing = [
                term_id
                for term_id in used[pk].get(source, ())
                if code in named.get(term_id, ()) and term_id not in used[pk].get(code, ())
            ]
            if missing:
                counts[section_id, code] = counts.get((section_id, code), 0) + len(missing)
    return counts
