from dataclasses import dataclass, field

from django import template

from ipgsite.ipg import languages

from ..models import Link

register = template.Library()


@dataclass
class Mentioning:
    """One paragraph that mentions the section: in which languages, and whether in its text or its notes."""

    paragraph: object
    in_text: list = field(default_factory=list)
    in_notes: list = field(default_factory=list)

    @property
    def text_languages(self):
        return _named(self.in_text)

    @property
    def note_languages(self):
        return _named(self.in_notes)


def _named(codes):
    """Each language by its own name, with the `lang` that name is written in."""
    return [(languages.name(code), languages.html_lang(code)) for code in languages.CODES if code in codes]


@register.inclusion_tag("crosslinks/mentioned_in.html")
def mentioned_in(section):
    """What links to this section: the other sections' paragraphs (and notes) that mention it."""
    by_section = {}
    for link in Link.objects.pointing_to(section).select_related("paragraph__section").in_reading_order():
        source = link.paragraph.section
        paragraphs = by_section.setdefault(source.pk, (source, {}))[1]
        entry = paragraphs.setdefault(link.paragraph_id, Mentioning(paragraph=link.paragraph))
        found_in = entry.in_notes if link.note_id else entry.in_text
        if link.language not in found_in:
            found_in.append(link.language)
    groups = [(source, list(paragraphs.values())) for source, paragraphs in by_section.values()]
    return {"section": section, "groups": groups}
