"""The finder on other apps' pages: the steps leading to a section, and the steps matching a search."""

from django import template
from django.utils.translation import get_language

from ipgsite.editing.models import State, Status
from ipgsite.ipg import languages

from ..graph import Graph, step_url
from ..matching import matching_steps
from ..models import Question
from ..views import wording

register = template.Library()


@register.inclusion_tag("finder/leads_here.html")
def finder_steps_to(section):
    """On a section page: the finder's outcomes naming this section, each as the last question and answer leading
    there, linked to that step."""
    graph = Graph.stored()
    code = get_language()
    ends = []
    for answers in graph.paths():
        step = graph.walk(answers)
        if step.node.section_id == section.pk:
            last = step.taken[-1]
            ends.append(
                {
                    "href": step_url(answers),
                    "question": wording(last.question.text_in, code),
                    "answer": wording(lambda c, q=last.question, i=last.index: q.answers_in(c)[i], code),
                }
            )
    return {"ends": ends, "section": section, "start_url": step_url(())}


@register.inclusion_tag("finder/search_matches.html")
def finder_matches(text, folded=False):
    """On the search page: the finder's questions matching the query, each linked to its step; `folded` under their
    count (after the first results, which they never push down)."""
    code = get_language()
    steps = [{"href": step_url(m.answers), "question": wording(m.question.text_in, code)} for m in matching_steps(text)]
    return {"steps": steps, "start_url": step_url(()), "folded": folded}


@register.inclusion_tag("finder/dashboard.html")
def finder_wording_counts():
    """On the translators' dashboard: the finder's questions by status in each language, and where to word them."""
    counts = {}
    for code, state in Status.objects.of_model(Question).values_list("language", "state"):
        counts.setdefault(code, {}).setdefault(state, 0)
        counts[code][state] += 1
    columns = [
        (code, languages.html_lang(code), languages.name(code), [(s, counts.get(code, {}).get(s, 0)) for s in State])
        for code in languages.CODES
    ]
    return {"columns": columns, "total": sum(counts.get(languages.SOURCE, {}).values())}
