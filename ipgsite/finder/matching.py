"""Finding the finder's steps that match a situation typed into search ("drew an extra card", "多抓了一张牌").

A step matches by its own wording, the question and its answers in every language. Latin words are matched at the
start of a word ("card" finds "cards"), each with the other forms the termbase gives it ("drew" finds "drawn");
Chinese and Japanese by their two-character pieces. A step is listed when most of the query's words or pieces are in
it (three in five words, two in five pieces: a CJK phrase is worded in many ways), best first. A query's first
MAX_WORDS words and MAX_PIECES pieces are matched, whatever its length: as many as search itself takes.
"""

import math
import re
from dataclasses import dataclass

from ipgsite.caching.versions import read_once_per_version
from ipgsite.ipg import languages
from ipgsite.ipg.text import CJK_RUN as CJK
from ipgsite.terms.lookup import vocabulary

from .graph import Graph

WORD = re.compile(r"[A-Za-z0-9]+")
# Words that say nothing about a situation.
STOP = {
    "a",
    "an",
    "the",
    "and",
    "or",
    "of",
    "to",
    "in",
    "on",
    "at",
    "for",
    "is",
    "was",
    "it",
    "by",
    "his",
    "her",
    "their",
}
MAX_STEPS = 5
MAX_WORDS = 8  # as search.query.MAX_TERMS
MAX_PIECES = 16  # pairs of CJK characters: two a word


@dataclass
class Match:
    answers: tuple  # the answers leading to the step
    question: object
    score: float


def _forms(word):
    """The word and, where it is a form of a term, every English form of that term."""
    forms = {word}
    for suffix in ("ing", "ed", "es", "s"):  # "acknowledged" finds "acknowledge"
        if len(word) - len(suffix) >= 4 and word.endswith(suffix):
            forms.add(word[: -len(suffix)])
    for term in vocabulary():
        english = [form.casefold() for code, form in term.forms() if code == "en"]
        if word in english:
            forms.update(form for form in english if " " not in form)
    return forms


def _pieces(text):
    """A query's first Latin words (each as a pattern matching any of its forms at the start of a word) and first CJK
    two-character pieces."""
    words = [w for w in (m.casefold() for m in WORD.findall(text)) if w not in STOP and len(w) > 1]
    bigrams = [run[i : i + 2] for run in CJK.findall(text) for i in range(max(1, len(run) - 1))]
    words, bigrams = list(dict.fromkeys(words))[:MAX_WORDS], list(dict.fromkeys(bigrams))[:MAX_PIECES]
    patterns = [re.compile("|".join(rf"(?<![a-z0-9]){re.escape(form)}" for form in _forms(w))) for w in words]
    return patterns, bigrams


def _wording(question):
    texts = []
    for code in languages.CODES:
        texts.append(question.text_in(code))
        texts.extend(question.answers_in(code))
    return "\n".join(texts).casefold()


def _read_worded_steps():
    """(answers, question, wording) of each question's first step: kept per content version, since every search
    asks."""
    graph = Graph.stored()
    first_path = {}
    for answers in graph.steps():
        step = graph.walk(answers)
        if not step.is_outcome:
            first_path.setdefault(step.node.key, answers)
    questions = graph.questions
    return tuple((answers, questions[key], _wording(questions[key])) for key, answers in first_path.items())


_worded_steps = read_once_per_version(_read_worded_steps)


def matching_steps(text):
    """The finder's steps whose wording holds most of the query, best first (at most MAX_STEPS)."""
    words, bigrams = _pieces(text or "")
    wanted = len(words) + len(bigrams)
    if not wanted:
        return []
    found = []
    for answers, question, wording in _worded_steps():
        hits = sum(1 for pattern in words if pattern.search(wording))
        hits += sum(1 for piece in bigrams if piece in wording)
        if hits >= max(1, math.ceil(len(words) * 0.6 + len(bigrams) * 0.4)):
            found.append(Match(answers=answers, question=question, score=hits / wanted))
    found.sort(key=lambda m: (-m.score, m.question.order))
    return found[:MAX_STEPS]
