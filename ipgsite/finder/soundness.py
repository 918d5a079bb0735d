"""What makes the finder's graph sound, checked on the graph as its documents describe it before it is loaded
(content/finder.toml, read by `ipgsite.contentfiles.finder`): every cited section and paragraph there, no dead end, no
cycle, every node reachable from the first question, a wording in each language unless marked missing; each outcome's
quotes saying what it concludes and a question's concluding only what one of its answers ends at (`conclusions`);
every example paragraph recorded once, its answers walking from the first question to an outcome in its own section;
every case walking to an outcome its cited paragraphs name.

The graph is read as plain documents (questions with `key`, `cites`, `texts`, `answers`, `missing`; outcomes with
`key`, `section`, `cites`, `guidance`, `conclusion`; examples; cases; each with the `line` it is written at) and the
sections as `ipgsite.ipg.documents` has them. The first thing wrong is raised as `Unsound`: the node, example or case,
the reason, and the line.
"""

from ipgsite.ipg import languages

from . import conclusions


class Unsound(Exception):
    """What is wrong with the graph ("node 'x': dead end: …"), and the line of the file that writes it, if known."""

    def __init__(self, reason, line=None):
        self.reason, self.line = reason, line
        super().__init__(reason)


def check_graph(graph, section_docs):
    """Raise `Unsound` (the node, the reason, the line) for the first thing wrong with the graph."""
    paragraphs = {(s.number, p.key) for s in section_docs for p in s.paragraphs}
    sections = {s.number: s for s in section_docs}
    questions = {q.key: q for q in graph.questions}
    outcomes = {o.key: o for o in graph.outcomes}

    def error(node, reason):
        return Unsound(f"node {node.key!r}: {reason}", node.line)

    for node in [*graph.questions, *graph.outcomes]:
        for cite in node.cites:
            number, key = cite.split("#")
            if number not in sections:
                raise error(node, f"cites {cite}, but there is no section {number}")
            if (number, key) not in paragraphs:
                raise error(node, f"cites {cite}, but section {number} has no paragraph {key!r}")
    for outcome in graph.outcomes:
        if not outcome.section:
            continue
        if outcome.section not in sections:
            raise error(outcome, f"leads to section {outcome.section}, which does not exist")
        if not sections[outcome.section].penalty:
            raise error(outcome, f"section {outcome.section} is no infraction (it has no penalty)")
    for question in graph.questions:
        if not question.answers:
            raise error(question, "dead end: a question without answers reaches no outcome")
        for answer in question.answers:
            if answer.next not in questions and answer.next not in outcomes:
                raise error(question, f"dead end: answer {answer.key!r} leads to {answer.next!r}, which is no node")
        for code in languages.CODES:
            has = [bool(question.texts.get(code))] + [bool(a.labels.get(code)) for a in question.answers]
            if code in question.missing:
                if any(has[1:]) and not all(has[1:]):
                    raise error(question, f"its answers are worded in {code} in part; word all of them or none")
            elif not all(has):
                raise error(question, f"no {code} wording for the question or an answer, and not marked missing")
    # No cycle, and every node reachable from the first question (depth-first, keeping the path for the message).
    state, reached = {}, set()

    def visit(key, path_so_far):
        if state.get(key) == "open":
            cycle = " → ".join([*path_so_far[path_so_far.index(key) :], key])
            raise error(questions[key], f"cycle: {cycle}")
        if state.get(key) == "done":
            return
        reached.add(key)
        if key in questions:
            state[key] = "open"
            for answer in questions[key].answers:
                visit(answer.next, [*path_so_far, key])
        state[key] = "done"

    visit(graph.start, [])
    for node in [*graph.questions, *graph.outcomes]:
        if node.key not in reached:
            raise error(node, f"unreachable from the first question {graph.start!r}")
    check_quotes(graph, section_docs)
    check_examples(graph, section_docs)
    check_cases(graph, section_docs)


def reader_of(section_docs):
    """A `conclusions.Reader` that knows every section's names."""
    return conclusions.Reader(
        {
            s.number: conclusions.section_names(
                s.title.values(),
                [n for names in s.aliases.values() for n in names],
                [n for names in s.former_names.values() for n in names],
            )
            for s in section_docs
        }
    )


def _texts_of(section_docs):
    return {f"{s.number}#{p.key}": list(p.texts.values()) for s in section_docs for p in s.paragraphs}


def check_quotes(graph, section_docs):
    """Each outcome's quotes say what it concludes; a question's quotes conclude only what its answers end at."""
    reader, texts = reader_of(section_docs), _texts_of(section_docs)
    outcomes = {o.key: o for o in graph.outcomes}
    for outcome in graph.outcomes:
        cited = [(cite.split("#")[0], texts[cite]) for cite in outcome.cites]
        problem = conclusions.outcome_problem(reader, outcome.conclusion, cited, outcome.guidance)
        if problem:
            raise Unsound(f"node {outcome.key!r}: {problem}", outcome.line)
    for question in graph.questions:
        ends = {outcomes[a.next].conclusion for a in question.answers if a.next in outcomes}
        problem = conclusions.question_problem(reader, ends, [(cite, texts[cite]) for cite in question.cites])
        if problem:
            raise Unsound(f"node {question.key!r}: {problem}", question.line)


def _walk(graph, answers):
    """The node `answers` reach from the first question, or the reason they reach none."""
    questions = {q.key: q for q in graph.questions}
    node = graph.start
    for answer in answers:
        if node not in questions:
            return None, f"the path has reached the outcome {node!r} before {answer!r}: one answer too many"
        keys = [a.key for a in questions[node].answers]
        if answer not in keys:
            return None, f"{answer!r} is no answer to the question {node!r} (its answers: {', '.join(keys)})"
        node = questions[node].answers[keys.index(answer)].next
    return node, None


def check_cases(graph, section_docs):
    """Every case walks from the first question to an outcome that the paragraphs it cites conclude."""
    reader, texts = reader_of(section_docs), _texts_of(section_docs)
    outcomes = {o.key: o for o in graph.outcomes}
    for case in graph.cases:

        def error(reason, case=case):
            return Unsound(f"case {case.key!r}: {reason}", case.line)

        for cite in case.cites:
            if cite not in texts:
                raise error(f"cites {cite}, which is no paragraph of content/sections")
        node, reason = _walk(graph, case.answers)
        if reason:
            raise error(reason)
        if node not in outcomes:
            raise error(f"the path stops at the question {node!r}; answer it too, up to an outcome")
        said = set().union(*(reader.concluded(texts[cite]) for cite in case.cites))
        said |= {cite.split("#")[0] for cite in case.cites}
        if outcomes[node].conclusion not in said:
            raise error(
                f"the path ends at {outcomes[node].conclusion} (outcome {node!r}), which none of the paragraphs it "
                "cites says"
            )


def check_examples(graph, section_docs):
    """Every example paragraph recorded, each walking from the first question to an outcome in its own section."""
    outcomes = {o.key: o for o in graph.outcomes}
    parts = {(s.number, p.key): p.part for s in section_docs for p in s.paragraphs}
    for example in graph.examples:

        def error(reason, example=example):
            return Unsound(f"example {example.paragraph}: {reason}", example.line)

        number, key = example.paragraph.split("#")
        if parts.get((number, key)) != "example":
            raise error(f"section {number} has no example paragraph {key!r}")
        node, reason = _walk(graph, example.answers)
        if reason:
            raise error(reason)
        if node not in outcomes:
            raise error(f"the path stops at the question {node!r}; answer it too, up to an infraction")
        if outcomes[node].section != number:
            ends = outcomes[node].conclusion
            raise error(f"the path ends at section {ends} (outcome {node!r}), not at its own section {number}")
    recorded = {e.paragraph for e in graph.examples}
    for section in section_docs:
        for paragraph in section.paragraphs:
            if paragraph.part == "example" and f"{section.number}#{paragraph.key}" not in recorded:
                where = section.path.name if section.path else f"section {section.number}"
                raise Unsound(
                    f"example {section.number}#{paragraph.key} ({where}) has no recorded path: add an [[examples]] "
                    f'table with paragraph = "{section.number}#{paragraph.key}" and the answers a judge gives for it',
                )
