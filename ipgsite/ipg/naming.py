"""How a reader sees a paragraph named: "Example C", "Definition, paragraph 2", "Philosophy", in the active language,
as the section page labels it. The one function for every list, citation, pin, search result, glossary entry and finder
citation; a paragraph's key ("example-c", "definition-2") is its address, kept in URLs and anchors only."""

import string
from dataclasses import dataclass

from django.utils.translation import gettext as _

from .models import Part


@dataclass
class Place:
    """Where a paragraph stands in its section: its part, its letter if an example, its place in the part."""

    part: str
    letter: str  # "C" for the third example, else ""
    position: int  # 1 for the part's first paragraph
    count: int  # how many paragraphs the part has


def place_of(paragraphs, key):
    """The Place of the paragraph `key` among `paragraphs` (a section's, in order; anything with .key and .part), or
    None."""
    examples, found = 0, None
    for paragraph in paragraphs:
        if paragraph.key == key:
            found = paragraph
            break
        examples += paragraph.part == Part.EXAMPLE
    if found is None:
        return None
    same_part = [p for p in paragraphs if p.part == found.part]
    letter = string.ascii_uppercase[examples % 26] if found.part == Part.EXAMPLE else ""
    position = next(i for i, p in enumerate(same_part, 1) if p.key == key)
    return Place(part=found.part, letter=letter, position=position, count=len(same_part))


def paragraph_name(place):
    """ "Example C", "Definition, paragraph 2", "Philosophy", in the active language."""
    if place.letter:
        return _("Example %(letter)s") % {"letter": place.letter}
    label = str(Part(place.part).label)
    if place.count > 1:
        return _("%(part)s, paragraph %(number)d") % {"part": label, "number": place.position}
    return label


def name_in(section, key):
    """The name of the paragraph `key` of `section` (a Section), read once per section object; "" if it has none."""
    paragraphs = getattr(section, "_named_paragraphs", None)
    if paragraphs is None:
        paragraphs = list(section.paragraphs.order_by("order").only("key", "part", "section"))
        section._named_paragraphs = paragraphs
    place = place_of(paragraphs, key)
    return paragraph_name(place) if place else ""


def name_of(paragraph):
    """The name of a paragraph (a Paragraph) in its section."""
    return name_in(paragraph.section, paragraph.key)
