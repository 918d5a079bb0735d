"""What the IPG's paragraphs conclude, as the finder reads them to check its steps: the infractions a paragraph names
as what a situation *is* ("is treated as a Hidden Card Error"), not those it names only to rule out ("It is not a
Hidden Card Error if …"), and where it says that something is not an infraction at all.

An outcome's quotes must say what the outcome concludes (its infraction named, or the paragraph one of its
section's), unless the outcome is marked as the site's guidance; a question's quotes may conclude only what one of
its answers ends at, so that a quote never contradicts the step it is on (2.1 definition-8's "further problems are a
Game Rule Violation" belongs where an answer ends there). `checkcontent` and `loadcontent` apply these to
content/finder.toml; the functions take plain data so that they read the files and the database alike.
"""

import re

from ipgsite.ipg.text import word_pattern

NOT_AN_INFRACTION = "not-an-infraction"

# Where the IPG says a thing is no infraction at all (2.4 definition-2, 2.1's "違反とはならない"). The Chinese texts on
# this site say it nowhere, so no Chinese phrase is listed.
NO_INFRACTION_PHRASES = (r"\bnot an infraction\b", "違反とはならない", "違反にはならない")

# A name mentioned only to be ruled out: "not a Hidden Card Error", "〔…〕とはならない", "这不是一个非公开牌张失误".
NEGATED_BEFORE = re.compile(r"(?:\bnot\s+(?:an?\s+)?|(?:不是|并非|不属于)(?:一个|一种)?[“「〔]?)$", re.IGNORECASE)
NEGATED_AFTER = re.compile(r"^[”」〕]?\s*(?:とは|には)(?:ならない|ならず|なりません|当たらない|当たりません)")
DASHES = "-‐‑‒–—―─━~～〜"


def section_names(titles, aliases=(), former_names=()):
    """The names a text calls a section by: its titles, the part of each after the dash (the infraction's own name:
    "Hidden Card Error" of "Game Play Error — Hidden Card Error"), its aliases and former names, in any language."""
    names = set()
    for title in [*titles, *former_names]:
        names.add(title)
        parts = re.split(f"\\s*[{re.escape(DASHES)}]+\\s*", title)
        if len(parts) > 1 and parts[-1]:
            names.add(parts[-1])
    names.update(aliases)
    return {name for name in names if len(name) > 1}


class Reader:
    """Reads paragraphs for their conclusions, knowing every section's names: {number: names}."""

    def __init__(self, names):
        self.patterns = {
            number: re.compile("|".join(word_pattern(n, dashes=DASHES) for n in sorted(found, key=len, reverse=True)))
            for number, found in names.items()
            if found
        }
        self.no_infraction = re.compile("|".join(NO_INFRACTION_PHRASES))

    def concluded(self, texts):
        """The conclusions the texts state: section numbers named other than to be ruled out, and
        NOT_AN_INFRACTION where they say that something is none."""
        found = set()
        for text in texts:
            if self.no_infraction.search(text):
                found.add(NOT_AN_INFRACTION)
            for number, pattern in self.patterns.items():
                for match in pattern.finditer(text):
                    before, after = text[max(0, match.start() - 12) : match.start()], text[match.end() :]
                    if not NEGATED_BEFORE.search(before) and not NEGATED_AFTER.match(after):
                        found.add(number)
                        break
        return found


def outcome_problem(reader, conclusion, cited, guidance):
    """What is wrong with an outcome's quotes, or None. `conclusion` is its section's number or NOT_AN_INFRACTION;
    `cited` is [(section number, [texts])] of the paragraphs it cites."""
    said = set().union(*(reader.concluded(texts) for _number, texts in cited)) if cited else set()
    said |= {number for number, _texts in cited}  # a section's own paragraphs speak of it
    if conclusion in said and guidance:
        return "its quotes name its infraction themselves: it is not the site's guidance (drop guidance = true)"
    if conclusion not in said and not guidance:
        what = "say that it is not an infraction" if conclusion == NOT_AN_INFRACTION else f"name {conclusion}"
        return (
            f"none of the paragraphs it cites is of its section or {what}: cite one that does, or mark it as the "
            "site's guidance (guidance = true)"
        )
    return None


def question_problem(reader, ends, cited):
    """What is wrong with a question's quotes, or None: a quote that concludes what none of its answers ends at
    (`ends`: the conclusions its answers lead to directly). `cited` is [(address, [texts])]."""
    for address, texts in cited:
        stray = sorted(reader.concluded(texts) - set(ends))
        if stray:
            return (
                f"cites {address}, which concludes {', '.join(stray)}, but no answer here ends there: cite it where "
                "an answer does"
            )
    return None


def stored_reader():
    """A Reader that knows the stored sections' names: their titles, aliases and former names."""
    from ipgsite.ipg import languages
    from ipgsite.ipg.models import Section

    names = {}
    for section in Section.objects.prefetch_related("aliases"):
        titles = languages.translations(section, "title").values()
        aliases = [a.name for a in section.aliases.all()]
        names[section.number] = section_names(titles, aliases)
    return Reader(names)
