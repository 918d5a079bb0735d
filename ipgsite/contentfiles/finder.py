"""content/finder.toml: the infraction finder's decision graph.

    [[questions]]                       # the first question is where the finder starts
    key = "public-information"
    cites = ["2.3#definition-1"]        # the paragraphs that state the distinction the question draws
    en = "Can the error be corrected using only publicly available information?"
    zh-hans = "…"
    ja = "…"
    missing = ["ja"]                    # languages the wording is knowingly missing in (optional)

    [[questions.answers]]
    key = "yes"                         # the answer's part of a step's URL
    next = "game-rule-violation"        # a question's or an outcome's key
    en = "Yes"
    zh-hans = "…"
    ja = "…"

    [[outcomes]]
    key = "game-rule-violation"
    section = "2.5"                     # the infraction; its penalty is the section's
    cites = ["2.3#philosophy-2"]        # the paragraphs that say it is this infraction
    guidance = true                     # only where the cited paragraphs do not name it: the site's guidance

    [[outcomes]]
    key = "not-an-infraction-trivial"
    verdict = "not-an-infraction"       # in place of a section: the IPG says this is no infraction
    cites = ["2.4#definition-2"]

    [[examples]]                        # a worked example: one per example paragraph of every section with text
    paragraph = "2.3#example-c"
    answers = ["in-game", "shown", "yes", "yes"]   # what a judge answers for its facts, from the first

    [[cases]]                           # a situation the IPG decides outside its examples, in the site's words
    key = "mulligan-announced-early"
    answers = ["pre-game", "trivial"]
    cites = ["2.4#definition-2"]        # the paragraphs that say where it ends
    en = "…"
    zh-hans = "…"
    ja = "…"

A question or an outcome referenced by several answers is written once: shared branches are keys, not copies.
`read_finder` checks each field and unique keys, then the graph as the finder app says a sound one is
(`ipgsite.finder.soundness`: every `next` a node, every cited section and paragraph in content/sections, no cycle,
every node reachable, every example paragraph recorded, quotes that say what their steps conclude). Every error names
the file, the line, the node and the reason. `dump_finder` writes one canonical text, so a load followed by an export
reproduces the file byte for byte.
"""

import re
from dataclasses import dataclass, field
from pathlib import Path

from ipgsite.editing import writing
from ipgsite.editing.writing import CONTENT_FILES, LATEST
from ipgsite.finder import soundness
from ipgsite.finder.conclusions import NOT_AN_INFRACTION
from ipgsite.finder.models import Case, Example, Outcome, Question
from ipgsite.ipg import languages
from ipgsite.ipg.models import KEY_PATTERN, PARAGRAPH_ADDRESS, Paragraph, Section

from .toml import ContentError, File, load_toml, toml_string

FILENAME = "finder.toml"
HEADER = (
    "# The infraction finder. Questions and answers are the site's own guidance, not IPG text; each cites the\n"
    "# paragraphs that state the distinction it draws. The first question is where the finder starts."
)
QUESTION_FIELDS = {"key", "cites", "missing", "answers", *languages.CODES}
ANSWER_FIELDS = {"key", "next", *languages.CODES}
OUTCOME_FIELDS = {"key", "section", "verdict", "cites", "guidance"}
EXAMPLE_FIELDS = {"paragraph", "answers"}
CASE_FIELDS = {"key", "answers", "cites", *languages.CODES}


@dataclass
class AnswerDoc:
    key: str
    next: str
    labels: dict  # {code: label}
    line: int | None = None


@dataclass
class QuestionDoc:
    key: str
    cites: list
    texts: dict  # {code: question}
    answers: list = field(default_factory=list)
    missing: list = field(default_factory=list)
    line: int | None = None


@dataclass
class OutcomeDoc:
    key: str
    section: str  # "" for an outcome that is no infraction
    cites: list
    guidance: bool = False
    line: int | None = None

    @property
    def conclusion(self):
        return self.section or NOT_AN_INFRACTION


@dataclass
class ExampleDoc:
    paragraph: str  # "2.3#example-c"
    answers: list  # answer keys, from the first question
    line: int | None = None


@dataclass
class CaseDoc:
    key: str
    answers: list  # answer keys, from the first question
    cites: list
    texts: dict  # {code: the situation, in the site's words}
    line: int | None = None


@dataclass
class Graph:
    questions: list
    outcomes: list
    examples: list = field(default_factory=list)
    cases: list = field(default_factory=list)

    @property
    def start(self):
        return self.questions[0].key if self.questions else None


def _key(f, value, what, at):
    key = f.string(value, what, at, 64)
    if not re.fullmatch(KEY_PATTERN, key):
        raise f.error(f"{what} {key!r} must be lowercase letters and digits joined by hyphens", at)
    return key


def _cites(f, value, what, at):
    if not isinstance(value, list) or not value or not all(isinstance(c, str) for c in value):
        raise f.error(f'{what}: cites must be a non-empty list of paragraphs like "2.3#definition-1"', at)
    for cite in value:
        if not PARAGRAPH_ADDRESS.fullmatch(cite):
            raise f.error(f'{what}: {cite!r} is no paragraph; write a section and a key, "2.3#definition-1"', at)
    if len(set(value)) != len(value):
        raise f.error(f"{what}: a paragraph is cited twice", at)
    return list(value)


def _texts(f, table, what, at):
    texts = {}
    for code in languages.CODES:
        if code in table:
            value = f.string(table[code], f"{what}: the {code} text", (*at, code), 2000)
            if value != value.strip() or "\n" in value:
                raise f.error(f"{what}: the {code} text must be one line without surrounding spaces", (*at, code))
            texts[code] = value
    return texts


def parse_finder(path):
    """The graph as written, each field checked; `read_finder` checks it as a graph."""
    path = Path(path)
    text, data = load_toml(path)
    f = File(path, text)
    f.fields(data, {"questions", "outcomes", "examples", "cases"}, FILENAME)
    seen, questions, outcomes, answer_index = {}, [], [], 0
    for index, table in enumerate(f.tables(data.get("questions", []), "questions", "question", ("questions",))):
        at = ("questions", index)
        f.fields(table, QUESTION_FIELDS, "a question", at)
        key = _key(f, table.get("key"), "a question's key", (*at, "key"))
        if key in seen:
            raise f.error(f"node {key!r}: duplicate node (first defined at line {seen[key]})", (*at, "key"))
        seen[key] = f.lines.of(*at)
        what = f"node {key!r}"
        missing = table.get("missing", [])
        if not isinstance(missing, list) or any(code not in languages.CODES for code in missing):
            raise f.error(f"{what}: missing must be a list of languages among {languages.CODES}", (*at, "missing"))
        doc = QuestionDoc(
            key=key,
            cites=_cites(f, table.get("cites"), what, (*at, "cites")),
            texts=_texts(f, table, what, at),
            missing=[code for code in languages.CODES if code in missing],
            line=seen[key],
        )
        answers = f.tables(table.get("answers", []), "questions.answers", f"{what}: answer", (*at, "answers"))
        for answer in answers:
            a_at = ("questions", "answers", answer_index)  # where Lines records [[questions.answers]] tables
            answer_index += 1
            f.fields(answer, ANSWER_FIELDS, f"{what}: an answer", a_at)
            a_key = _key(f, answer.get("key"), f"{what}: an answer's key", (*a_at, "key"))
            if any(a.key == a_key for a in doc.answers):
                raise f.error(f"{what}: the answer {a_key!r} is listed twice", a_at)
            doc.answers.append(
                AnswerDoc(
                    key=a_key,
                    next=_key(f, answer.get("next"), f"{what}: answer {a_key!r} leads to", (*a_at, "next")),
                    labels=_texts(f, answer, f"{what}: answer {a_key!r}", a_at),
                    line=f.lines.of(*a_at),
                )
            )
        questions.append(doc)
    for index, table in enumerate(f.tables(data.get("outcomes", []), "outcomes", "outcome", ("outcomes",))):
        at = ("outcomes", index)
        f.fields(table, OUTCOME_FIELDS, "an outcome", at)
        key = _key(f, table.get("key"), "an outcome's key", (*at, "key"))
        if key in seen:
            raise f.error(f"node {key!r}: duplicate node (first defined at line {seen[key]})", (*at, "key"))
        seen[key] = f.lines.of(*at)
        if ("section" in table) == ("verdict" in table):
            raise f.error(f'node {key!r}: an outcome has a section or verdict = "{NOT_AN_INFRACTION}", not both', at)
        if "verdict" in table:
            if table["verdict"] != NOT_AN_INFRACTION:
                raise f.error(f'node {key!r}: the only verdict is "{NOT_AN_INFRACTION}"', (*at, "verdict"))
            section = ""
        else:
            section = f.string(table.get("section"), f"node {key!r}: section", (*at, "section"), 10)
        cites = _cites(f, table.get("cites"), f"node {key!r}", (*at, "cites"))
        guidance = table.get("guidance", False)
        if not isinstance(guidance, bool):
            raise f.error(f"node {key!r}: guidance is true or false", (*at, "guidance"))
        outcomes.append(OutcomeDoc(key=key, section=section, cites=cites, guidance=guidance, line=seen[key]))
    examples = []
    for index, table in enumerate(f.tables(data.get("examples", []), "examples", "example", ("examples",))):
        at = ("examples", index)
        f.fields(table, EXAMPLE_FIELDS, "an example", at)
        paragraph = f.string(table.get("paragraph"), "an example's paragraph", (*at, "paragraph"), 80)
        if not PARAGRAPH_ADDRESS.fullmatch(paragraph):
            raise f.error(f'example {paragraph!r}: write a section and a key, "2.3#example-c"', (*at, "paragraph"))
        if any(e.paragraph == paragraph for e in examples):
            raise f.error(f"example {paragraph}: recorded twice", (*at, "paragraph"))
        answers = table.get("answers")
        if not isinstance(answers, list) or not answers or not all(isinstance(a, str) for a in answers):
            raise f.error(f'example {paragraph}: answers must be a non-empty list of answer keys, "in-game"', at)
        examples.append(ExampleDoc(paragraph=paragraph, answers=list(answers), line=f.lines.of(*at)))
    cases = []
    for index, table in enumerate(f.tables(data.get("cases", []), "cases", "case", ("cases",))):
        at = ("cases", index)
        f.fields(table, CASE_FIELDS, "a case", at)
        key = _key(f, table.get("key"), "a case's key", (*at, "key"))
        if any(c.key == key for c in cases):
            raise f.error(f"case {key!r}: recorded twice", (*at, "key"))
        answers = table.get("answers")
        if not isinstance(answers, list) or not answers or not all(isinstance(a, str) for a in answers):
            raise f.error(f'case {key!r}: answers must be a non-empty list of answer keys, "in-game"', at)
        texts = _texts(f, table, f"case {key!r}", at)
        if set(texts) != set(languages.CODES):
            raise f.error(f"case {key!r}: word it in every language ({', '.join(languages.CODES)})", at)
        cites = _cites(f, table.get("cites"), f"case {key!r}", (*at, "cites"))
        cases.append(CaseDoc(key=key, answers=list(answers), cites=cites, texts=texts, line=f.lines.of(*at)))
    if not questions:
        raise f.error("the finder has no question: write at least one [[questions]] table")
    return Graph(questions=questions, outcomes=outcomes, examples=examples, cases=cases)


def read_finder(directory, section_docs):
    """The finder's graph in a content directory (None without finder.toml), checked against the sections."""
    path = Path(directory) / FILENAME
    if not path.exists():
        return None
    graph = parse_finder(path)
    try:
        soundness.check_graph(graph, section_docs)
    except soundness.Unsound as unsound:
        raise ContentError(path, unsound.reason, unsound.line) from None
    return graph


def _cites_line(cites):
    return f"cites = [{', '.join(toml_string(c) for c in cites)}]"


def dump_finder(graph):
    lines = [HEADER]
    for q in graph.questions:
        lines += ["", "[[questions]]", f"key = {toml_string(q.key)}", _cites_line(q.cites)]
        lines += [f"{code} = {toml_string(q.texts[code])}" for code in languages.CODES if code in q.texts]
        if q.missing:
            lines.append(f"missing = [{', '.join(toml_string(c) for c in q.missing)}]")
        for a in q.answers:
            lines += ["", "[[questions.answers]]", f"key = {toml_string(a.key)}", f"next = {toml_string(a.next)}"]
            lines += [f"{code} = {toml_string(a.labels[code])}" for code in languages.CODES if code in a.labels]
    for o in graph.outcomes:
        lines += ["", "[[outcomes]]", f"key = {toml_string(o.key)}"]
        lines.append(
            f"section = {toml_string(o.section)}" if o.section else f"verdict = {toml_string(NOT_AN_INFRACTION)}"
        )
        lines.append(_cites_line(o.cites))
        if o.guidance:
            lines.append("guidance = true")
    for e in graph.examples:
        answers = ", ".join(toml_string(a) for a in e.answers)
        lines += ["", "[[examples]]", f"paragraph = {toml_string(e.paragraph)}", f"answers = [{answers}]"]
    for c in graph.cases:
        answers = ", ".join(toml_string(a) for a in c.answers)
        lines += ["", "[[cases]]", f"key = {toml_string(c.key)}", f"answers = [{answers}]", _cites_line(c.cites)]
        lines += [f"{code} = {toml_string(c.texts[code])}" for code in languages.CODES if code in c.texts]
    return "\n".join(lines) + "\n"


def documents_from_database():
    """The database's graph as documents, in the file's order (None if it holds no question)."""
    questions = []
    for question in Question.objects.order_by("order", "key"):
        labels = {code: question.answers_in(code) for code in languages.CODES}
        answers = [
            AnswerDoc(
                key=choice["key"],
                next=choice["next"],
                labels={code: labels[code][i] for code in languages.CODES if labels[code][i]},
            )
            for i, choice in enumerate(question.choices)
        ]
        texts = {code: text for code in languages.CODES if (text := question.text_in(code))}
        missing = [
            code for code in languages.CODES if code not in texts or not all(a.labels.get(code) for a in answers)
        ]
        questions.append(
            QuestionDoc(key=question.key, cites=question.cites, texts=texts, answers=answers, missing=missing)
        )
    if not questions:
        return None
    outcomes = [
        OutcomeDoc(key=o.key, section=o.section.number if o.section_id else "", cites=o.cites, guidance=o.guidance)
        for o in Outcome.objects.order_by("order", "key").select_related("section")
    ]
    # A recorded example whose paragraph was deleted goes with it, so the export loads again.
    existing = {f"{n}#{k}" for n, k in Paragraph.objects.values_list("section__number", "key")}
    examples = [
        ExampleDoc(paragraph=e.paragraph, answers=e.answers)
        for e in Example.objects.order_by("order")
        if e.paragraph in existing
    ]
    cases = [
        CaseDoc(
            key=c.key,
            answers=c.answers,
            cites=c.cites,
            texts={code: text for code in languages.CODES if (text := c.text_in(code))},
        )
        for c in Case.objects.order_by("order", "key")
    ]
    return Graph(questions=questions, outcomes=outcomes, examples=examples, cases=cases)


# Loading: the database's finder made exactly what content/finder.toml says, as one batch of writes.


def load_finder(graph):
    """{created, updated, deleted}: the counts of questions, outcomes and worked examples. Unchanged ones are not
    touched.

    `graph` None (no finder.toml) empties the finder.
    """
    stats = {"created": 0, "updated": 0, "deleted": 0}
    questions = graph.questions if graph else []
    outcomes = graph.outcomes if graph else []
    examples = graph.examples if graph else []
    cases = graph.cases if graph else []
    sections = {s.number: s.pk for s in Section.objects.all()}
    with writing.batch(CONTENT_FILES):
        for model, docs in ((Question, questions), (Outcome, outcomes)):
            for obj in model.objects.exclude(key__in=[doc.key for doc in docs]):
                writing.delete(obj, by=CONTENT_FILES)
                stats["deleted"] += 1
        for obj in Example.objects.exclude(paragraph__in=[doc.paragraph for doc in examples]):
            writing.delete(obj, by=CONTENT_FILES)
            stats["deleted"] += 1
        for obj in Case.objects.exclude(key__in=[doc.key for doc in cases]):
            writing.delete(obj, by=CONTENT_FILES)
            stats["deleted"] += 1
        existing = {o.key: o for o in Outcome.objects.all()}
        for order, doc in enumerate(outcomes, 1):
            outcome = existing.get(doc.key) or Outcome(key=doc.key)
            values = {
                "order": order,
                "section_id": sections[doc.section] if doc.section else None,
                "cites": doc.cites,
                "guidance": doc.guidance,
            }
            if outcome.pk is None or any(getattr(outcome, name) != value for name, value in values.items()):
                stats["created" if outcome.pk is None else "updated"] += 1
                writing.save_structure(outcome, values, by=CONTENT_FILES)
        existing = {q.key: q for q in Question.objects.all()}
        for order, doc in enumerate(questions, 1):
            question = existing.get(doc.key) or Question(key=doc.key)
            created = question.pk is None
            choices = [{"key": a.key, "next": a.next} for a in doc.answers]
            values = {"order": order, "choices": choices, "cites": doc.cites}
            changed = created or any(getattr(question, name) != value for name, value in values.items())
            if changed:
                question = writing.save_structure(question, values, by=CONTENT_FILES)
            wording = {
                "text": doc.texts,
                "answers": {
                    code: "\n".join(a.labels[code] for a in doc.answers)
                    for code in languages.CODES
                    if all(a.labels.get(code) for a in doc.answers)
                },
            }
            for name, by_language in wording.items():
                for code in languages.CODES:
                    value = by_language.get(code, "")
                    if value != writing.text_in(question, code, name):
                        changed |= writing.write_text(
                            question, code, value, by=CONTENT_FILES, base_revision=LATEST, field=name
                        )
            if created:
                stats["created"] += 1
            elif changed:
                stats["updated"] += 1
        existing = {e.paragraph: e for e in Example.objects.all()}
        for order, doc in enumerate(examples, 1):
            example = existing.get(doc.paragraph) or Example(paragraph=doc.paragraph)
            values = {"order": order, "answers": doc.answers}
            if example.pk is None or any(getattr(example, name) != value for name, value in values.items()):
                stats["created" if example.pk is None else "updated"] += 1
                writing.save_structure(example, values, by=CONTENT_FILES)
        existing = {c.key: c for c in Case.objects.all()}
        for order, doc in enumerate(cases, 1):
            case = existing.get(doc.key) or Case(key=doc.key)
            created = case.pk is None
            values = {"order": order, "answers": doc.answers, "cites": doc.cites}
            changed = created or any(getattr(case, name) != value for name, value in values.items())
            if changed:
                case = writing.save_structure(case, values, by=CONTENT_FILES)
            for code in languages.CODES:
                value = doc.texts.get(code, "")
                if value != writing.text_in(case, code, "text"):
                    changed |= writing.write_text(case, code, value, by=CONTENT_FILES, base_revision=LATEST)
            if changed:
                stats["created" if created else "updated"] += 1
    return stats
