"""content/terms.toml: the termbase, one `[[terms]]` table per term, in the order the glossary lists them by kind.

    [[terms]]
    key = "mulligan"
    kind = "game-term"                  # infraction, game-term or card
    defined_at = "2.4#definition-1"     # the paragraph that defines it, where the IPG has one
    en = "mulligan"                     # its name in each language the texts name it in
    zh-hans = "再调度"
    ja = "マリガン"

    [terms.variants]                    # other forms the texts attest: abbreviations, former names, inflections
    en = ["mulligans"]

    [terms.inflections]                 # grammatical forms of a name the texts need not contain
    en = ["mulliganed"]

    [terms.not_in]                      # phrases in which a form means something else: never an occurrence
    en = ["with one hand"]

    [terms.found]                       # where each name and variant was found: a seed's line, or section#key
    "mulligan" = ["002:19", "2.4#definition-1"]

A seed location is the seed file's number and a line (`002:19` is line 19 of tests/fixtures/seeds/002_….txt); a
paragraph location is `section#key`, whose text in the name's language holds the name. Each place holds the form
itself, not another inflection of it: a name the texts hold only in its variants ("scry": scries, scried) has no
places, and `attested_by_variants = ["en"]` says so. A phrase in `not_in` holds one of the term's forms in its
language. The file is optional: a content directory without it has no terms. `dump_terms` writes one canonical
text, so a load followed by an export reproduces the file byte for byte.
"""

import re
from dataclasses import dataclass, field
from pathlib import Path

from ipgsite.editing import writing
from ipgsite.editing.models import State, Status
from ipgsite.editing.writing import CONTENT_FILES, LATEST, Declared
from ipgsite.ipg import languages
from ipgsite.ipg.models import KEY_PATTERN, PARAGRAPH_ADDRESS, Paragraph
from ipgsite.terms.attestation import SEED_LOCATION
from ipgsite.terms.lookup import form_pattern
from ipgsite.terms.models import Kind, Term

from .toml import ContentError, File, kind_of, load_toml, toml_string

FILENAME = "terms.toml"
TERM_FIELDS = {
    "key",
    "kind",
    "defined_at",
    "outdated",
    "reviewed",
    "variants",
    "inflections",
    "found",
    "attested_by_variants",
    "not_in",
    *languages.CODES,
}
HEADER = """\
# The IPG's terms. Names and variants only as the source texts have them; `found` says where: a seed's line
# ("002:19") or a paragraph ("2.3#example-c") that holds the form itself, not another inflection of it.
# attested_by_variants = ["en"]: the texts hold that language's name only in its variants (scry: scries, scried).
# [terms.not_in]: phrases in which a form means something else ("with one hand"): the site never marks it there."""
MAX_NAME = Term._meta.get_field("name").max_length


@dataclass
class TermDoc:
    key: str
    kind: str
    names: dict  # {code: name}
    variants: dict = field(default_factory=dict)  # {code: [form]}
    inflections: dict = field(default_factory=dict)  # {code: [form]}
    defined_at: str = ""  # "2.3#definition-1"
    found: dict = field(default_factory=dict)  # {form: [location]}
    attested_by_variants: list = field(default_factory=list)  # languages whose name only its variants attest
    not_in: dict = field(default_factory=dict)  # {code: [phrase]} where a form means something else
    outdated: list = field(default_factory=list)  # translated names that follow an older English name
    reviewed: list = field(default_factory=list)  # translated names someone other than their translator reviewed
    line: int | None = None

    def forms(self):
        """(language, form) for every name, variant and inflection."""
        for code in languages.CODES:
            if code in self.names:
                yield code, self.names[code]
            yield from ((code, form) for form in self.variants.get(code, []))
            yield from ((code, form) for form in self.inflections.get(code, []))


def _form(f, value, what, at):
    f.string(value, what, at, MAX_NAME)
    if value != value.strip() or "\n" in value or "\r" in value:
        raise f.error(f"{what} must be one line without surrounding spaces", at)
    return value


def _forms_table(f, table, name, what, at):
    table = f.table(table, f"{what}: [terms.{name}]", "a table of lists of forms by language", at)
    f.fields(table, set(languages.CODES), f"{what}: [terms.{name}]", at)
    forms = {}
    for code in languages.CODES:
        if code in table:
            values = table[code]
            if not isinstance(values, list) or not values:
                raise f.error(f"{what}: {name}.{code} must be a non-empty list of strings", (*at, code))
            forms[code] = [_form(f, v, f"{what}: a form in {name}.{code}", (*at, code)) for v in values]
    return forms


def parse_terms(path):
    path = Path(path)
    text, data = load_toml(path)
    f = File(path, text)
    f.fields(data, {"terms"}, FILENAME)
    docs, seen = [], {}
    for index, table in enumerate(f.tables(data.get("terms", []), "terms", "term", ("terms",))):
        at = ("terms", index)
        f.fields(table, TERM_FIELDS, "a term", at)
        key = f.string(table.get("key"), "a term's key", (*at, "key"), Term._meta.get_field("key").max_length)
        if not re.fullmatch(KEY_PATTERN, key):
            raise f.error(f"term key {key!r} must be lowercase letters and digits joined by hyphens", (*at, "key"))
        if key in seen:
            raise f.error(f"duplicate term key {key!r} (first used at line {seen[key]})", (*at, "key"))
        seen[key] = f.lines.of(*at)
        what = f"term {key!r}"
        kind = f.choice(table.get("kind"), Kind.values, f"{what}: ", "kind", (*at, "kind"))
        names = {
            code: _form(f, table[code], f"{what}: the {code} name", (*at, code))
            for code in languages.CODES
            if code in table
        }
        if not names:
            raise f.error(f"{what} has no name in any language ({', '.join(languages.CODES)})", at)
        defined_at = table.get("defined_at", "")
        if defined_at != "" and (not isinstance(defined_at, str) or not PARAGRAPH_ADDRESS.fullmatch(defined_at)):
            raise f.error(
                f'{what}: defined_at must be a paragraph like "2.3#definition-1", not {kind_of(defined_at)}',
                (*at, "defined_at"),
            )
        doc = TermDoc(key=key, kind=kind, names=names, defined_at=defined_at, line=seen[key])
        translations = [code for code in names if code != languages.SOURCE]
        for name in ("outdated", "reviewed"):
            codes = table.get(name, [])
            if not isinstance(codes, list) or len(set(map(str, codes))) != len(codes):
                raise f.error(f"{what}: {name} must be a list of languages, each once", (*at, name))
            for code in codes:
                if code not in translations:
                    raise f.error(f"{what}: {name} names {code!r}, which is not a translated name it has", (*at, name))
            setattr(doc, name, list(codes))
        if set(doc.outdated) & set(doc.reviewed):
            raise f.error(f"{what}: a name is either outdated or reviewed, not both", (*at, "reviewed"))
        doc.variants = _forms_table(f, table.get("variants", {}), "variants", what, (*at, "variants"))
        doc.inflections = _forms_table(f, table.get("inflections", {}), "inflections", what, (*at, "inflections"))
        doc.not_in = _forms_table(f, table.get("not_in", {}), "not_in", what, (*at, "not_in"))
        for code, phrases in doc.not_in.items():
            own = [form for c, form in doc.forms() if c == code]
            for phrase in phrases:
                if not any(re.search(form_pattern(form), phrase, re.IGNORECASE) for form in own):
                    raise f.error(
                        f"{what}: the not_in phrase {phrase!r} holds none of its {code} forms", (*at, "not_in", code)
                    )
                if phrase.casefold() in (form.casefold() for form in own):
                    raise f.error(f"{what}: the not_in phrase {phrase!r} is one of its own forms", (*at, "not_in"))
        codes = table.get("attested_by_variants", [])
        if not isinstance(codes, list) or len(set(map(str, codes))) != len(codes):
            raise f.error(
                f"{what}: attested_by_variants must be a list of languages, each once", (*at, "attested_by_variants")
            )
        for code in codes:
            if code not in names or not doc.variants.get(code):
                raise f.error(
                    f"{what}: attested_by_variants names {code!r}, but it has no {code} name with variants",
                    (*at, "attested_by_variants"),
                )
        doc.attested_by_variants = list(codes)
        forms = {}
        for code, form in doc.forms():
            if (code, form) in forms:
                raise f.error(f"{what}: the {code} form {form!r} is listed twice", at)
            forms[code, form] = True
        found = f.table(
            table.get("found", {}), f"{what}: [terms.found]", "a table of locations by form", (*at, "found")
        )
        known = {form for _code, form in doc.forms()}
        unplaced = {names[code] for code in doc.attested_by_variants}
        for form, locations in found.items():
            if form not in known:
                raise f.error(f"{what}: found lists {form!r}, which is none of its names or variants", (*at, "found"))
            if form in unplaced:
                raise f.error(
                    f"{what}: found lists {form!r}, which attested_by_variants says no text holds", (*at, "found")
                )
            if not isinstance(locations, list) or not locations or not all(isinstance(x, str) for x in locations):
                raise f.error(f"{what}: found.{form!r} must be a non-empty list of locations", (*at, "found"))
            for location in locations:
                if not (SEED_LOCATION.fullmatch(location) or PARAGRAPH_ADDRESS.fullmatch(location)):
                    raise f.error(
                        f"{what}: {location!r} is no location; write a seed line "
                        '"000:5" or a paragraph "2.3#example-c"',
                        (*at, "found"),
                    )
            doc.found[form] = list(locations)
        docs.append(doc)
    return docs


def read_terms(directory, section_docs):
    """The terms in a content directory ([] without terms.toml), checked against the sections and each other."""
    path = Path(directory) / FILENAME
    if not path.exists():
        return []
    docs = parse_terms(path)
    paragraphs = {(s.number, p.key): p for s in section_docs for p in s.paragraphs}
    owners = {}
    for doc in docs:
        if doc.defined_at:
            number, key = doc.defined_at.split("#")
            if (number, key) not in paragraphs:
                raise ContentError(
                    path, f"term {doc.key!r}: defined_at {doc.defined_at} is no paragraph in content/sections", doc.line
                )
        for form, locations in doc.found.items():
            for location in locations:
                match = PARAGRAPH_ADDRESS.fullmatch(location)
                if match and (match["number"], match["key"]) not in paragraphs:
                    raise ContentError(
                        path, f"term {doc.key!r}: found.{form!r} names {location}, which is no paragraph", doc.line
                    )
        for code, form in doc.forms():
            other = owners.setdefault((code, form.casefold()), doc.key)
            if other != doc.key:
                raise ContentError(
                    path, f"term {doc.key!r}: the {code} form {form!r} is also a form of term {other!r}", doc.line
                )
    return docs


def _forms_block(header, forms):
    if not forms:
        return []
    lines = ["", f"[terms.{header}]"]
    for code in languages.CODES:
        if forms.get(code):
            lines.append(f"{code} = [{', '.join(toml_string(v) for v in forms[code])}]")
    return lines


def dump_terms(docs):
    lines = [HEADER]
    for doc in docs:
        lines += ["", "[[terms]]", f"key = {toml_string(doc.key)}", f"kind = {toml_string(doc.kind)}"]
        if doc.defined_at:
            lines.append(f"defined_at = {toml_string(doc.defined_at)}")
        lines += [f"{code} = {toml_string(doc.names[code])}" for code in languages.CODES if code in doc.names]
        for name in ("outdated", "reviewed", "attested_by_variants"):
            codes = [code for code in languages.CODES if code in getattr(doc, name)]
            if codes:
                lines.append(f"{name} = [{', '.join(toml_string(code) for code in codes)}]")
        lines += _forms_block("variants", doc.variants)
        lines += _forms_block("inflections", doc.inflections)
        lines += _forms_block("not_in", doc.not_in)
        if doc.found:
            # In the order of the forms: the database (jsonb) does not keep the order of a table's keys.
            order = list(dict.fromkeys(form for _code, form in doc.forms()))
            lines += ["", "[terms.found]"]
            lines += [
                f"{toml_string(form)} = [{', '.join(toml_string(x) for x in doc.found[form])}]"
                for form in sorted(
                    doc.found, key=lambda form: (order.index(form) if form in order else len(order), form)
                )
            ]
    return "\n".join(lines) + "\n"


def documents_from_database():
    """The database's terms as documents, in the file's order."""
    paragraphs = {f"{number}#{key}" for number, key in Paragraph.objects.values_list("section__number", "key")}
    docs = []
    terms = Term.objects.order_by("order", "key").select_related("defined_in__section").prefetch_related("statuses")
    for term in terms:
        defined = term.defined_in
        doc = TermDoc(
            key=term.key,
            kind=term.kind,
            names={code: name for code in languages.CODES if (name := term.name_in(code))},
            variants={code: forms for code in languages.CODES if (forms := term.variants_in(code))},
            inflections={code: forms for code in languages.CODES if (forms := term.inflections_in(code))},
            defined_at=f"{defined.section.number}#{defined.key}" if defined else "",
            attested_by_variants=[code for code in languages.CODES if code in (term.attested_by_variants or [])],
            not_in={code: phrases for code in languages.CODES if (phrases := term.not_in_phrases(code))},
        )
        # Where a form no longer in the termbase (a name edited since) was found goes with it, and so does a
        # paragraph deleted since.
        for status in term.statuses.all():
            if status.language in doc.names and status.language != languages.SOURCE:
                if status.state == State.OUTDATED:
                    doc.outdated.append(status.language)
                elif status.state == State.REVIEWED:
                    doc.reviewed.append(status.language)
        forms = {form for _code, form in doc.forms()}
        for form, places in (term.found or {}).items():
            kept = [place for place in places if "#" not in place or place in paragraphs]
            if form in forms and kept:
                doc.found[form] = kept
        docs.append(doc)
    return docs


# Loading: the database's terms made exactly what content/terms.toml says, as one batch of writes.


def _values(doc, order, paragraphs):
    defined = paragraphs[tuple(doc.defined_at.split("#"))] if doc.defined_at else None
    return {
        "kind": doc.kind,
        "order": order,
        "defined_in_id": defined,
        "found": doc.found,
        "attested_by_variants": doc.attested_by_variants,
        "not_in": doc.not_in,
    }


def load_terms(docs):
    """{created, updated, deleted}: the counts of terms. Unchanged terms are not touched."""
    stats = {"created": 0, "updated": 0, "deleted": 0}
    paragraphs = {(p.section.number, p.key): p.pk for p in Paragraph.objects.select_related("section")}
    english_changed = set()
    with writing.batch(CONTENT_FILES) as batch:
        for term in Term.objects.exclude(key__in=[doc.key for doc in docs]):
            writing.delete(term, by=CONTENT_FILES)
            stats["deleted"] += 1
        existing = {term.key: term for term in Term.objects.all()}
        for order, doc in enumerate(docs, 1):
            term = existing.get(doc.key) or Term(key=doc.key)
            values = _values(doc, order, paragraphs)
            created = term.pk is None
            changed = created or any(getattr(term, name) != value for name, value in values.items())
            if changed:
                term = writing.save_structure(term, values, by=CONTENT_FILES)
            texts = {
                "name": doc.names,
                "variants": {code: "\n".join(forms) for code, forms in doc.variants.items()},
                "inflections": {code: "\n".join(forms) for code, forms in doc.inflections.items()},
            }
            for field, by_language in texts.items():
                for code in languages.CODES:
                    value = by_language.get(code, "")
                    if value != writing.text_in(term, code, field):
                        if field == "name" and code == languages.SOURCE and not created:
                            english_changed.add(term.key)
                        changed |= writing.write_text(
                            term, code, value, by=CONTENT_FILES, base_revision=LATEST, field=field
                        )
            if created:
                stats["created"] += 1
            elif changed:
                stats["updated"] += 1
        declare_term_statuses(batch, docs, english_changed)
    return stats


def declare_term_statuses(batch, docs, english_changed=()):
    """Declare to the load's batch each translated name's status as the file says it: outdated (it follows an older
    English name, which the site does not hold), reviewed, or translated. A term whose English name this load changed
    keeps the statuses the change gave it (the statuses step sees to it)."""
    stored = {(s.object_id, s.language): s for s in Status.objects.of_model(Term)}
    for term in Term.objects.filter(key__in=[doc.key for doc in docs]):
        doc, english = next(d for d in docs if d.key == term.key), term.name_in(languages.SOURCE)
        for code in languages.others(languages.SOURCE):
            if not term.name_in(code) or term.key in english_changed:
                continue
            follows = None
            if code in doc.outdated:
                status = stored.get((term.pk, code))
                older = status.confirmed_source if status is not None else ""
                follows = older if older != english else ""  # "": an older English name the site does not hold
            batch.declare_status(term, code, Declared(follows=follows, reviewed=code in doc.reviewed))
