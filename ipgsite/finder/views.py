"""The finder's pages: one question per step, each answer a link to the next step; an outcome names the infraction."""

import string

from django.http import Http404, HttpResponsePermanentRedirect
from django.shortcuts import render
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_safe

from ipgsite.ipg import compare, languages
from ipgsite.ipg.models import Paragraph, Part
from ipgsite.ipg.reading import note_texts, shown_text

from .graph import Cited, Graph, cited_paragraphs, step_url
from .models import Case, Example

MAX_DEPTH = 100  # deeper than any graph checkcontent accepts is no step


def _codes(request):
    """The reader's languages for the cited paragraphs (`?langs=` as on section pages), or None to redirect."""
    chosen = request.GET.getlist("langs")
    if not chosen:
        return [get_language()], ""
    codes = compare.parse(",".join(chosen))
    if not codes or len(chosen) > 1 or compare.serialize(codes) != chosen[0]:
        return None, f"?langs={compare.serialize(codes)}" if codes else ""
    return codes, f"?langs={compare.serialize(codes)}"


def citations(cites, codes, cited=cited_paragraphs):
    """Each cited paragraph with its text in each of `codes` (a missing one shown as missing, as compare does)."""
    fallback = len(codes) == 1
    return [
        {
            "paragraph": paragraph,
            "section": paragraph.section,
            "texts": [shown_text(paragraph, "text", code, fallback=fallback) for code in codes],
            # the annotated editions' commentary on it (the Japanese edition's note on 2.3 definition-2 discusses
            # where Looking at Extra Cards ends and Hidden Card Error begins), marked as commentary
            "notes": [(note, note_texts(note, codes)) for note in paragraph.notes.order_by("order")],
        }
        for paragraph in cited(cites)
    ]


def worked_examples(graph, codes, query):
    """The IPG's example paragraphs recorded as cases, each with its text in each of `codes` and the link to the step
    its answers reach (an example whose paragraph or path is gone since the load is left out)."""
    examples = list(Example.objects.order_by("order"))
    paragraphs = {f"{p.section.number}#{p.key}": p for p in cited_paragraphs([e.paragraph for e in examples])}
    counts, letters = {}, {}  # each example's letter within its section, as the section page labels it
    for pk, section_id in Paragraph.objects.filter(part=Part.EXAMPLE).order_by("order").values_list("pk", "section"):
        letters[pk] = string.ascii_uppercase[counts.get(section_id, 0) % 26]
        counts[section_id] = counts.get(section_id, 0) + 1
    found = []
    for example in examples:
        paragraph = paragraphs.get(example.paragraph)
        if paragraph is None:
            continue
        try:
            end = graph.walk(tuple(example.answers))
        except Http404:
            continue
        if end.is_outcome:
            found.append(
                {
                    "paragraph": paragraph,
                    "section": paragraph.section,
                    "letter": letters.get(paragraph.pk, ""),
                    "texts": [shown_text(paragraph, "text", code, fallback=len(codes) == 1) for code in codes],
                    "href": step_url(example.answers) + query,
                }
            )
    return found


def cases(graph, query):
    """The situations the IPG decides outside its examples, in the site's words, each with the paragraphs that decide
    it and the link to the step its answers reach (one whose path is gone since the load is left out)."""
    found = []
    every = list(Case.objects.order_by("order"))
    cited = Cited([cite for case in every for cite in case.cites])
    for case in every:
        try:
            end = graph.walk(tuple(case.answers))
        except Http404:
            continue
        if end.is_outcome:
            found.append(
                {
                    "wording": wording(case.text_in, get_language()),
                    "citations": cited(case.cites),
                    "href": step_url(case.answers) + query,
                }
            )
    return found


def wording(text, code):
    """The site's wording in the page's language, or in another language marked with its `lang`."""
    if text(code):
        return {"text": text(code), "lang": languages.html_lang(code), "missing": False}
    for other in languages.others(code):
        if text(other):
            return {"text": text(other), "lang": languages.html_lang(other), "missing": True}
    return {"text": "", "lang": languages.html_lang(code), "missing": True}


@require_safe
def step(request, answers=""):
    codes, query = _codes(request)
    if codes is None:
        return HttpResponsePermanentRedirect(request.path + query)
    keys = tuple(answers.split("/")) if answers else ()
    if len(keys) > MAX_DEPTH:
        raise Http404("No step is that deep.")
    graph = Graph.stored()
    current = graph.walk(keys)
    code = get_language()
    back = []
    for taken in current.taken:
        question = taken.question
        back.append(
            {
                "question": wording(question.text_in, code),
                "answer": wording(lambda c, q=question, i=taken.index: q.answers_in(c)[i], code),
                "href": step_url(taken.before) + query,
            }
        )
    context = {
        "step": current,
        "back": back,
        "query": query,
        "codes": codes,
        "comparing": len(codes) > 1,
        "restart_url": step_url(()) + query,
        "current_url": step_url(keys),
        "slots": codes + [""] * (len(languages.CODES) - len(codes)),
        "all_languages": [(c, languages.name(c)) for c in languages.CODES],
    }
    node = current.node
    if current.is_outcome:
        section = node.section
        ruled_out = list(current.ruled_out())
        cited = Cited([*node.cites, *(cite for r in ruled_out for cite in r.taken.question.cites)])
        context.update(
            page_title=f"{section.number} {section.title_in(code) or section.title_en}"
            if section
            else gettext("Not an infraction"),
            section=section,
            has_text=section.paragraphs.exists() if section else True,
            citations=citations(node.cites, codes, cited),
            ruled_out=[
                {
                    "section": r.section,
                    "question": wording(r.taken.question.text_in, code),
                    "href": step_url(r.taken.before) + query,
                    "citations": cited(r.taken.question.cites),
                }
                for r in ruled_out
            ],
        )
    else:
        context.update(
            page_title=node.text_in(code) or node.text_en,
            question=wording(node.text_in, code),
            answers=[
                {
                    "label": wording(lambda c, i=i: node.answers_in(c)[i], code),
                    "href": step_url((*keys, choice["key"])) + query,
                }
                for i, choice in enumerate(node.choices)
            ],
            citations=citations(node.cites, codes),
            worked_examples=worked_examples(graph, codes, query) if not keys else [],
            cases=cases(graph, query) if not keys else [],
        )
    return render(request, "finder/step.html", context)
