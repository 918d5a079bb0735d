from dataclasses import dataclass, field

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from ipgsite.ipg import languages
from ipgsite.ipg.reading import shown_text

from .models import Kind, Occurrence, Term


@dataclass
class Entry:
    term: Term
    names: list  # [(code, html lang, language name, name or "")] in the site's order
    variants: list  # [(html lang, forms)]
    definition: object = None  # ipg.reading.Text of the defining paragraph, in the page's language
    sections: list = field(default_factory=list)  # [(section, first paragraph key using the term)]

    @property
    def heading(self):
        """The name in the page's language, else the first it has: (html lang, name)."""
        code = get_language()
        for candidate in [code, *languages.others(code)]:
            if name := self.term.name_in(candidate):
                return languages.html_lang(candidate), name
        return "", self.term.key


def _used_in():
    """{term id: [(section, key)]}: the sections whose official text uses each term, in reading order, each with
    the first paragraph that does."""
    used = {}
    rows = (
        Occurrence.objects.filter(note__isnull=True)
        .select_related("paragraph__section")
        .order_by("paragraph__section__order", "paragraph__order")
    )
    for occurrence in rows:
        sections = used.setdefault(occurrence.term_id, {})
        sections.setdefault(occurrence.paragraph.section.pk, (occurrence.paragraph.section, occurrence.paragraph.key))
    return {term_id: list(sections.values()) for term_id, sections in used.items()}


@require_safe
def glossary(request):
    """Every term with its three names side by side, grouped by kind; its definition; the sections that use it."""
    chosen = request.GET.get("kind", "")
    if chosen and chosen not in Kind.values:
        raise Http404("Unknown kind of term")
    code = get_language()
    terms = Term.objects.in_glossary_order().select_related("defined_in__section")
    if chosen:
        terms = terms.filter(kind=chosen)
    used = _used_in()
    groups = {}
    for term in terms:
        entry = Entry(
            term=term,
            names=[
                (other, languages.html_lang(other), languages.name(other), term.name_in(other))
                for other in languages.CODES
            ],
            variants=[
                (languages.html_lang(other), forms) for other in languages.CODES if (forms := term.variants_in(other))
            ],
            definition=shown_text(term.defined_in, "text", code) if term.defined_in else None,
            sections=used.get(term.pk, []),
        )
        groups.setdefault(term.kind, []).append(entry)
    context = {
        "groups": [(kind, Kind(kind).label, groups[kind]) for kind in Kind.values if kind in groups],
        "kinds": Kind.choices,
        "chosen": chosen,
    }
    return render(request, "terms/glossary.html", context)
