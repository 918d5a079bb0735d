"""A quiz from the IPG's own examples: each example is a question, and its section is the answer.

Nothing is invented: a question is an example paragraph as it is, its choices are the sections of its
chapter, and the quiz grows by itself as sections get examples. The order is shuffled by a seed, so a quiz
and its answers so far (`?seed=7&a=2.3&a=2.4`) are a plain URL that anyone can open again.
"""

import random
from dataclasses import dataclass, field

from ipgsite.ipg.models import Chapter, Paragraph, Part, Section

MAX_SEED = 10**9


class BadQuiz(ValueError):
    """A quiz URL that names something that does not exist; the message says what."""


@dataclass
class Quiz:
    seed: int
    chapter: Chapter | None = None
    sections: list = field(default_factory=list)  # the sections chosen, if the quiz is restricted to them
    questions: list = field(default_factory=list)  # example paragraphs, shuffled by the seed
    choices: dict = field(default_factory=dict)  # chapter pk -> its sections, in reading order

    def choices_for(self, question):
        return self.choices[question.section.chapter_id]

    def scope(self):
        """The query naming this quiz's restriction, to carry in every link."""
        if self.sections:
            return [("section", s.number) for s in self.sections]
        if self.chapter:
            return [("chapter", self.chapter.number)]
        return []


def parse_seed(raw):
    if raw is None or not raw.isascii() or not raw.isdigit() or len(raw) > len(str(MAX_SEED)):
        raise BadQuiz("seed")
    seed = int(raw)
    if seed >= MAX_SEED:
        raise BadQuiz("seed")
    return seed


def new_seed():
    return random.SystemRandom().randrange(MAX_SEED)


def build(seed, chapter_number=None, section_numbers=()):
    quiz = Quiz(seed=seed)
    examples = Paragraph.objects.filter(part=Part.EXAMPLE).select_related("section__chapter").in_reading_order()
    if section_numbers:
        wanted = list(dict.fromkeys(section_numbers))
        if any("\x00" in number for number in wanted):  # no number holds one (PostgreSQL would refuse to compare)
            raise BadQuiz("section")
        found = {s.number: s for s in Section.objects.filter(number__in=wanted)}
        unknown = [n for n in wanted if n not in found]
        if unknown:
            raise BadQuiz("section")
        quiz.sections = sorted(found.values(), key=lambda s: s.order)
        examples = examples.filter(section__in=quiz.sections)
    elif chapter_number:
        if "\x00" in chapter_number:
            raise BadQuiz("chapter")
        quiz.chapter = Chapter.objects.filter(number=chapter_number).first()
        if quiz.chapter is None:
            raise BadQuiz("chapter")
        examples = examples.filter(section__chapter=quiz.chapter)
    questions = [p for p in examples if p.languages()]
    random.Random(seed).shuffle(questions)
    quiz.questions = questions
    chapters = {q.section.chapter_id for q in questions}
    for section in Section.objects.filter(chapter__in=chapters).in_reading_order():
        quiz.choices.setdefault(section.chapter_id, []).append(section)
    return quiz


def check_answers(quiz, answers):
    """The answers given so far, each checked against its question's choices; True where right."""
    if len(answers) > len(quiz.questions):
        raise BadQuiz("too-many-answers")
    marks = []
    for question, answer in zip(quiz.questions, answers, strict=False):
        numbers = [s.number for s in quiz.choices_for(question)]
        if answer not in numbers:
            raise BadQuiz("answer")
        marks.append(answer == question.section.number)
    return marks
