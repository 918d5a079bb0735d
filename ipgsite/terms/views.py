from dataclasses import dataclass, field

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from ipgsite.ipg import languages
from ipgsite.ipg.models import Alias
from ipgsite.ipg.reading import shown_text

from .models import Kind, Occurrence, Term


@dataclass
class Name:
    code: str
    lang: str  # html lang
    language: str  # the language's name
    value: str  # "" where missing
    from_outline: bool = False  # no text names it so: the outline's title does


@dataclass
class Entry:
    term: Term
    names: list  # [Name], the page's language first
    variants: list  # [(html lang, forms)]
    former: list = field(default_factory=list)  # [(html lang, forms)]: variants that are former names
    definition: object = None  # ipg.reading.Text of the defining paragraph, in the page's language
    sections: list = field(default_factory=list)  # [(section, first paragraph key using the term)]

    @property
    def heading(self):
        """The name in the page's language, else the first it has: (html lang, name)."""
        for name in self.names:
            if name.value:
                return name.lang, name.value
        return "", self.term.key


class Outline:
    """The sections' names in the outline (titles and aliases: facts the site may use), as infractions are named."""

    def __init__(self):
        self.aliases = list(Alias.objects.select_related("section"))
        self.by_name = {(a.language, a.name): a.section for a in self.aliases if not a.former}

    def section_of(self, term):
        """The section an infraction names: the one it defines, else the one with one of its names as an alias."""
        if term.kind != Kind.INFRACTION:
            return None
        if term.defined_in:
            return term.defined_in.section
        names = ((code, term.name_in(code)) for code in languages.CODES)
        return next((self.by_name[key] for key in names if key in self.by_name), None)

    def name_in(self, section, code):
        """The section's short name in a language: its alias there that ends its title ("Missed Trigger")."""
        if section is None:
            return ""
        title = section.title_in(code)
        return next(
            (
                a.name
                for a in self.aliases
                if a.section_id == section.pk and a.language == code and not a.former and title.endswith(a.name)
            ),
            "",
        )

    def former_names(self, section, code):
        if section is None:
            return []
        return [a.name for a in self.aliases if a.section_id == section.pk and a.language == code and a.former]


def _entry(term, code, outline, used):
    section = outline.section_of(term)
    names = []
    for other in [code, *languages.others(code)]:
        value, from_outline = term.name_in(other), False
        if not value and (value := outline.name_in(section, other)):
            from_outline = True
        names.append(Name(other, languages.html_lang(other), languages.called(other), value, from_outline))
    variants, former = [], []
    for other in languages.CODES:
        formers = outline.former_names(section, other)
        forms = term.variants_in(other)
        old = [form for form in forms if any(form in name for name in formers)]
        if old:
            former.append((languages.html_lang(other), old))
        if rest := [form for form in forms if form not in old]:
            variants.append((languages.html_lang(other), rest))
    return Entry(
        term=term,
        names=names,
        variants=variants,
        former=former,
        definition=shown_text(term.defined_in, "text", code) if term.defined_in else None,
        sections=used.get(term.pk, []),
    )


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
    """Every term with its three names side by side, grouped by kind and sorted by its name in the page's language
    (an infraction no text names in it by its title in the outline); its definition; the sections that use it."""
    chosen = request.GET.get("kind", "")
    if chosen and chosen not in Kind.values:
        raise Http404("Unknown kind of term")
    code = get_language()
    terms = Term.objects.in_glossary_order().select_related("defined_in__section")
    if chosen:
        terms = terms.filter(kind=chosen)
    used, outline = _used_in(), Outline()
    groups = {}
    for term in terms:
        groups.setdefault(term.kind, []).append(_entry(term, code, outline, used))
    for entries in groups.values():
        # By the headword in the page's language; after them, those with none, by the name they show.
        entries.sort(key=lambda e: (not e.names[0].value, e.heading[1].casefold()))
    context = {
        "groups": [(kind, Kind(kind).label, groups[kind]) for kind in Kind.values if kind in groups],
        "kinds": Kind.choices,
        "chosen": chosen,
    }
    return render(request, "terms/glossary.html", context)
