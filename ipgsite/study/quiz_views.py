"""The quiz: one worked example at a time, a chapter's or every one, and every question on one page for offline."""

from urllib.parse import urlencode

from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_safe

from ipgsite.ipg.models import Chapter, Paragraph, Part, Section
from ipgsite.ipg.reading import shown_text

from . import quiz as quizzes
from .views import section_url, share_url


@require_safe
def quiz(request):
    """One example at a time: which infraction is it? Every step is a plain link; `seed` fixes the order."""
    code = get_language()
    try:
        if "seed" not in request.GET:
            return _quiz_start(request, code)
        seed = quizzes.parse_seed(request.GET.get("seed"))
        current = quizzes.build(seed, request.GET.get("chapter"), request.GET.getlist("section"))
        answers = request.GET.getlist("a")
        marks = quizzes.check_answers(current, answers)
    except quizzes.BadQuiz as problem:
        context = {"message": _bad_quiz_message(str(problem)), "start_url": reverse("study:quiz")}
        return render(request, "study/quiz_problem.html", context, status=404)
    return render(request, "study/quiz.html", _quiz_context(current, answers, marks, code))


def _bad_quiz_message(problem):
    return {
        "seed": gettext("A quiz's seed is a whole number below one billion."),
        "section": gettext("The quiz names a section that does not exist."),
        "chapter": gettext("The quiz names a chapter that does not exist."),
        "answer": gettext("An answer of this quiz is not one of its question's choices."),
        "too-many-answers": gettext("This quiz has more answers than questions."),
    }[problem]


def _quiz_url(current, answers=()):
    query = [("seed", current.seed)] + current.scope() + [("a", a) for a in answers]
    return reverse("study:quiz") + "?" + urlencode(query)


def _quiz_context(current, answers, marks, code):
    total = len(current.questions)
    context = {
        "quiz": current,
        "total": total,
        "answered": len(answers),
        "score": sum(marks),
        "restart_url": _quiz_url(current),
        "new_url": _quiz_url(quizzes.Quiz(seed=quizzes.new_seed(), chapter=current.chapter, sections=current.sections)),
        "start_url": reverse("study:quiz"),
    }
    if answers:
        asked = current.questions[len(answers) - 1]
        section = asked.section
        has_definition = section.paragraphs.filter(part=Part.DEFINITION).exists()
        context["result"] = {
            "right": marks[-1],
            "answer": next(s for s in current.choices_for(asked) if s.number == answers[-1]),
            "section": section,
            "penalty": section.penalty,
            "example_url": share_url(section, asked.key, code),
            # its Definition part, however many paragraphs it has (2.1 has 17)
            "definition_url": f"{section_url(section, code)}#part-{Part.DEFINITION}" if has_definition else "",
        }
    if len(answers) < total:
        question = current.questions[len(answers)]
        context["question"] = {
            "number": len(answers) + 1,
            "text": shown_text(question, "text", code, fallback=True),
            "choices": [
                (section, _quiz_url(current, [*answers, section.number])) for section in current.choices_for(question)
            ],
        }
    return context


OFFLINE_SEED = 1  # the offline quiz's one order: one page per language, whatever seed a step names


@require_safe
def quiz_offline(request):
    """Every question of the quiz on one page, chapter by chapter, each choice opening whether it is right: what the
    service worker shows offline for a quiz step it did not save (ipgsite/offline), which a chapter's quiz opens at
    its chapter. Without a score: each step of the quiz online is a URL of its own, too many to save."""
    code = get_language()
    current = quizzes.build(OFFLINE_SEED)
    chapters = {}
    for question in current.questions:
        chapter = question.section.chapter
        chapters.setdefault(chapter.pk, (chapter, []))[1].append(
            {
                "key": question.key,
                "text": shown_text(question, "text", code, fallback=True),
                "choices": [(section, section.pk == question.section_id) for section in current.choices_for(question)],
            }
        )
    groups = sorted(chapters.values(), key=lambda group: group[0].order)
    for number, question in enumerate((q for _chapter, questions in groups for q in questions), start=1):
        question["number"] = number
    return render(request, "study/quiz_offline.html", {"chapters": groups, "total": len(current.questions)})


def _quiz_start(request, code):
    chapters = []
    examples = Paragraph.objects.filter(part=Part.EXAMPLE)
    for chapter in Chapter.objects.all():
        count = examples.filter(section__chapter=chapter).count()
        if count:
            chapters.append((chapter, count, _quiz_url(quizzes.Quiz(seed=quizzes.new_seed(), chapter=chapter))))
    sections = Section.objects.filter(paragraphs__part=Part.EXAMPLE).distinct().in_reading_order()
    context = {
        "everything_url": _quiz_url(quizzes.Quiz(seed=quizzes.new_seed())),
        "total": examples.count(),
        "chapters": chapters,
        "sections": sections,
        "seed": quizzes.new_seed(),
    }
    return render(request, "study/quiz_start.html", context)
