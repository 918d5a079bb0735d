"""Walking the finder's graph: from the answers in a URL to the step they reach, and what the path ruled out."""

from dataclasses import dataclass, field

from django.http import Http404
from django.urls import reverse

from ipgsite.caching.versions import read_once_per_version
from ipgsite.ipg.models import Paragraph, Section

from .models import Outcome, Question


@dataclass
class Taken:
    """One answered question on the way: the answer chosen, and the path (answer keys) that led to the question."""

    question: Question
    index: int  # of the answer chosen
    before: tuple  # the answer keys that lead to the question

    @property
    def answer_key(self):
        return self.question.choices[self.index]["key"]


@dataclass
class Graph:
    questions: dict  # {key: Question}
    outcomes: dict  # {key: Outcome}
    start: str

    @classmethod
    def stored(cls):
        """The graph as stored, kept per content version: pages only read it."""
        return _stored()

    @classmethod
    def read(cls):
        questions = {q.key: q for q in Question.objects.order_by("order", "key")}
        outcomes = {o.key: o for o in Outcome.objects.select_related("section")}
        return cls(questions=questions, outcomes=outcomes, start=next(iter(questions), None))

    def node(self, key):
        return self.questions.get(key) or self.outcomes.get(key)

    def outcomes_from(self, key, memo=None):
        """The outcomes every path from node `key` can end at (the graph has no cycle: checkcontent sees to it)."""
        memo = {} if memo is None else memo
        if key not in memo:
            if key in self.outcomes:
                memo[key] = {key}
            elif key not in self.questions:  # an outcome deleted with its section since the graph was loaded
                memo[key] = set()
            else:
                memo[key] = set().union(*(self.outcomes_from(c["next"], memo) for c in self.questions[key].choices))
        return memo[key]

    def walk(self, answers):
        """The step that `answers` (answer keys, from the first question) reach: a Step; Http404 if any is unknown."""
        if self.start is None:
            raise Http404("The finder has no questions.")
        key, taken = self.start, []
        for n, answer in enumerate(answers):
            question = self.questions.get(key)
            if question is None:  # past an outcome: there is no node here
                raise Http404(f"No question after {'/'.join(answers[:n])}.")
            keys = [c["key"] for c in question.choices]
            if answer not in keys:
                raise Http404(f"Question {question.key!r} has no answer {answer!r}.")
            index = keys.index(answer)
            taken.append(Taken(question=question, index=index, before=tuple(answers[:n])))
            key = question.choices[index]["next"]
        if self.node(key) is None:  # an outcome deleted with its section since the graph was loaded
            raise Http404(f"No step at {'/'.join(answers)}.")
        return Step(graph=self, node=self.node(key), taken=taken)

    def paths(self):
        """Every path from the first question to an outcome, as tuples of answer keys."""

        def from_node(key, so_far):
            if key in self.outcomes:
                yield so_far
                return
            if key not in self.questions:
                return
            for choice in self.questions[key].choices:
                yield from from_node(choice["next"], (*so_far, choice["key"]))

        return list(from_node(self.start, ())) if self.start else []

    def steps(self):
        """Every step URL's answers: each path's prefixes, each once."""
        seen = {}
        for path in self.paths():
            for n in range(len(path) + 1):
                seen.setdefault(path[:n], True)
        return list(seen)


_stored = read_once_per_version(Graph.read)


@dataclass
class RuledOut:
    """An infraction the path ruled out, and the question (with its citations) after whose answer it was out of
    reach."""

    section: Section
    taken: Taken


@dataclass
class Step:
    graph: Graph
    node: object  # a Question or an Outcome
    taken: list = field(default_factory=list)

    @property
    def is_outcome(self):
        return isinstance(self.node, Outcome)

    @property
    def answers(self):
        return tuple(t.answer_key for t in self.taken)

    def ruled_out(self):
        """For an outcome: each infraction other than its own that the path can no longer reach, credited to the
        question after whose answer it could not be reached any more."""
        if not self.is_outcome:
            return []
        found, memo = {}, {}

        def sections_from(key):
            outcomes = map(self.graph.outcomes.get, self.graph.outcomes_from(key, memo))
            return {o.section_id: o.section for o in outcomes if o.is_infraction}

        for taken in self.taken:
            before = sections_from(taken.question.key)
            after = sections_from(taken.question.choices[taken.index]["next"])
            for pk, section in before.items():
                if pk not in after and pk != self.node.section_id:
                    found.setdefault(pk, RuledOut(section=section, taken=taken))
        return sorted(found.values(), key=lambda r: r.section.order)


def step_url(answer_keys):
    answers = "/".join(answer_keys)
    return reverse("finder:step", kwargs={"answers": answers}) if answers else reverse("finder:start")


def finder_urls():
    """Every step's URL in the active language, for the offline copy."""
    return [step_url(answers) for answers in Graph.stored().steps()]


class Cited:
    """The paragraphs `cites` name ("2.3#definition-1"), read together: one query, and one Section object per
    section, so that naming them ("Example C") reads each section's paragraphs once."""

    def __init__(self, cites):
        sections, self.found = {}, {}
        numbers = {cite.split("#")[0] for cite in cites}
        for p in Paragraph.objects.filter(section__number__in=numbers).select_related("section"):
            p.section = sections.setdefault(p.section_id, p.section)
            self.found[(p.section.number, p.key)] = p

    def __call__(self, cites):
        """Those of `cites` found, in that order."""
        pairs = [tuple(cite.split("#")) for cite in cites]
        return [self.found[pair] for pair in pairs if pair in self.found]


def cited_paragraphs(cites):
    return Cited(cites)(cites)
