"""Reading lists: paragraphs named in the URL (`?p=2.3:example-c&p=2.4:definition-1`), kept in that order."""

import re
from dataclasses import dataclass

from ipgsite.ipg.models import Section
from ipgsite.ipg.reading import read_section

MAX_PARAGRAPHS = 50
REFERENCE = re.compile(r"^(?P<number>[1-9][0-9]*\.[1-9][0-9]*|[A-Z]):(?P<key>[a-z0-9]+(?:-[a-z0-9]+)*)$")


@dataclass
class Entry:
    """One reference of the list: the paragraph it names, or why there is none."""

    reference: str
    section: Section | None = None
    row: object = None  # ipg.reading.ShownParagraph
    problem: str = ""  # "malformed", "unknown-section", "unknown-paragraph"

    @property
    def anchor(self):
        return "ref-" + re.sub(r"[^a-z0-9]+", "-", self.reference.lower()).strip("-")


def parse(reference):
    """('2.3', 'example-c') for '2.3:example-c', None for anything else."""
    match = REFERENCE.match(reference.strip())
    return (match["number"], match["key"]) if match else None


def read_list(references, codes, fallback):
    """An entry per reference, in order; each section is read once however many of its paragraphs are listed."""
    parsed = [parse(reference) for reference in references]
    numbers = {p[0] for p in parsed if p}
    sections = {s.number: s for s in Section.objects.filter(number__in=numbers).select_related("chapter")}
    rows = {}
    for number, section in sections.items():
        for part in read_section(section, codes, fallback=fallback):
            for row in part.rows:
                rows[number, row.paragraph.key] = row
    entries = []
    for reference, found in zip(references, parsed, strict=True):
        entry = Entry(reference=reference.strip())
        if found is None:
            entry.problem = "malformed"
        elif found[0] not in sections:
            entry.problem = "unknown-section"
        else:
            entry.section = sections[found[0]]
            entry.row = rows.get(found)
            if entry.row is None:
                entry.problem = "unknown-paragraph"
        entries.append(entry)
    return entries
