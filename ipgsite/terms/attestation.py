"""Whether each place content/terms.toml cites in `found` holds its form: a line of a seed (settings.SEEDS_DIR, the
source texts kept in the repository), or a paragraph's text in the form's language.

A place holds a form where the term's own forms find that very form there: not another inflection of it ("scries"
is no place for "scry"), not inside a longer word, and not inside one of the term's `not_in` phrases ("非公開領域" is
no place for "公開領域"). Another term's longer name may hold it: マリガン手順の誤り attests マリガン, as "Mulligan
Procedure Error" attests "mulligan", though a page marks only the infraction there.
"""

import re
from pathlib import Path

from ipgsite.ipg import languages
from ipgsite.ipg.models import PARAGRAPH_ADDRESS

from .lookup import Matcher, TermForms

SEED_LOCATION = re.compile(r"(?P<seed>\d{3}):(?P<line>[1-9]\d*)")  # "002:19": line 19 of seed 002


def read_seeds(directory):
    """{"000": [line, …]}: each seed file `NNN_….txt` in the directory, by its number."""
    seeds = {}
    for path in sorted(Path(directory).glob("*.txt")):
        if match := re.match(r"(\d{3})_", path.name):
            seeds.setdefault(match[1], path.read_text(encoding="utf-8").split("\n"))
    return seeds


def _matcher(doc):
    """The term's own forms, and its `not_in` phrases, as the site finds them."""
    return Matcher(
        [
            TermForms(
                key=doc.key,
                kind=doc.kind,
                names=doc.names,
                variants={
                    code: tuple(doc.variants.get(code, []) + doc.inflections.get(code, [])) for code in languages.CODES
                },
                defined_at=doc.defined_at or None,
                not_in=doc.not_in,
            )
        ]
    )


def _holds(matcher, text, key, form):
    wanted = " ".join(form.split()).casefold()
    return any(
        term.key == key and " ".join(words.split()).casefold() == wanted
        for _start, _end, words, term in matcher.finditer(text)
    )


def misplaced(docs, section_docs, seeds):
    """Problems, one line each: a cited seed or line that does not exist, a place that does not hold its form."""
    paragraphs = {(s.number, p.key): p for s in section_docs for p in s.paragraphs}
    problems = []
    for doc in docs:
        matcher = _matcher(doc)
        codes = {}
        for code, form in doc.forms():
            codes.setdefault(form, []).append(code)
        for form, places in doc.found.items():
            for place in places:
                what = f"term {doc.key!r}: found.{form!r} cites {place}"
                if match := SEED_LOCATION.fullmatch(place):
                    lines = seeds.get(match["seed"])
                    if lines is None:
                        known = ", ".join(sorted(seeds)) or "none"
                        problems.append(f"{what}, but there is no seed {match['seed']} (there are: {known})")
                        continue
                    number = int(match["line"])
                    if number > len(lines):
                        problems.append(f"{what}, but seed {match['seed']} has only {len(lines)} lines")
                        continue
                    texts = [lines[number - 1]]
                else:
                    match = PARAGRAPH_ADDRESS.fullmatch(place)
                    paragraph = paragraphs.get((match["number"], match["key"]))
                    texts = [paragraph.texts.get(code, "") for code in codes[form]] if paragraph else []
                if not any(_holds(matcher, text, doc.key, form) for text in texts):
                    problems.append(f"{what}, which does not hold {form!r} itself")
    return problems
