"""Finding mentions of IPG sections, and of the Magic Tournament Rules, in text.

A section is mentioned by one of its names: its title in any language, or one of its aliases
(short names, abbreviations, former names: `ipg.Alias` rows, which are data, edited in the admin
or in content/). Names match whatever dash joins their parts ("—", "─", "―", "-", "~"), and Latin
names match whole words only, with their case: "GRV" and "Looking at Extra Cards" are references,
"looking at extra cards" in a sentence is not.

A section is also mentioned by its number, where the text says it is a reference: "section 2.5",
"IPG 2.5", "§2.5", "2.5節", "2.5节", "Appendix A". A bare "2.5" is not a reference, and neither is
a number that belongs to the MTR ("MTR 4.3", "MTR 4.3節", "section 4.3 of the MTR"), which is
recognised as a mention of the MTR instead.
"""

import re
from dataclasses import dataclass
from functools import lru_cache

from ipgsite.ipg import languages
from ipgsite.ipg.models import Alias, Section
from ipgsite.ipg.text import word_pattern

DASHES = "-‐‑‒–—―─━~～〜"
DASH = "[" + re.escape(DASHES) + "]"

MTR_NAMES = r"(?<![A-Za-z])MTR|Magic Tournament Rules|マジック・イベント規定|万智牌赛事规则"
MTR = rf"(?:{MTR_NAMES})\s*(?:[Ss]ection\s*|§\s*)?(?P<mtr>\d+(?:\.\d+)*)(?:\s*[節节条])?"
NOT_MTR = r"(?!\s+(?:of|in)\s+the\s+(?:MTR|Magic Tournament Rules))"
NUMBER = r"\d+\.\d+(?![.]?\d)"
IPG_NUMBER = (
    rf"(?<![A-Za-z])(?:[Ss]ection|IPG|§)\s*(?P<number>{NUMBER})(?:\s*[節节])?{NOT_MTR}"
    rf"|(?<![\d.])(?P<number_cjk>{NUMBER})\s*[節节]"
    r"|(?<![A-Za-z])Appendix\s+(?P<appendix>[A-Z])(?![A-Za-z0-9])"
)


def canonical(name):
    """A name with its dashes and spaces made uniform: what two spellings of one name share."""
    name = re.sub(rf"\s*{DASH}+\s*", "—", name.strip())
    return re.sub(r"\s+", " ", name)


@dataclass(frozen=True)
class Mention:
    start: int
    end: int
    text: str
    section_id: int | None = None
    mtr: str = ""


class Matcher:
    """Finds mentions, given every section's names: {canonical name: section id} and {number: section id}."""

    def __init__(self, names, numbers):
        self.names = names
        self.numbers = numbers
        self.regex = _compile(tuple(sorted(names, key=lambda n: (-len(n), n))))

    def mentions(self, text):
        for match in self.regex.finditer(text):
            if not match.group():
                continue
            found = match.group()
            if match.group("mtr"):
                yield Mention(match.start(), match.end(), found, mtr=match.group("mtr"))
                continue
            number = match.group("number") or match.group("number_cjk") or match.group("appendix")
            section_id = self.numbers.get(number) if number else self.names.get(canonical(found))
            if section_id is not None:
                yield Mention(match.start(), match.end(), found, section_id=section_id)

    def spans(self, text):
        """(start, end, mention) of each mention in `text`, as `ipg.spans.find` takes them."""
        for mention in self.mentions(text):
            yield mention.start, mention.end, mention

    @classmethod
    def from_database(cls):
        """Every section's names: its titles in each language, and its aliases, current and former."""
        title_fields = [f"title_{languages.field_suffix(code)}" for code in languages.CODES]
        sections = tuple(Section.objects.order_by("pk").values_list("pk", "number", *title_fields))
        aliases = tuple(Alias.objects.order_by("pk").values_list("name", "section_id"))
        return _matcher(sections, aliases)


@lru_cache(maxsize=4)
def _matcher(sections, aliases):
    """A name that two sections share is ambiguous and links nowhere."""
    owners, numbers = {}, {}
    for pk, number, *titles in sections:
        numbers[number] = pk
        for title in titles:
            if title:
                owners.setdefault(canonical(title), set()).add(pk)
    for name, section_id in aliases:
        if name.strip():
            owners.setdefault(canonical(name), set()).add(section_id)
    names = {name: ids.pop() for name, ids in owners.items() if len(ids) == 1}
    return Matcher(names, numbers)


@lru_cache(maxsize=16)
def _compile(names):
    # Whatever dash and spacing the text uses; Latin names as whole words, with their case.
    alternatives = [word_pattern(name, dashes=DASHES) for name in names]
    pattern = f"(?P<name>{'|'.join(alternatives)})|" if alternatives else ""
    return re.compile(f"{pattern}{MTR}|{IPG_NUMBER}")
