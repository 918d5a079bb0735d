"""What /linker.js needs to find references in other sites' text."""

from django.http import JsonResponse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from ipgsite.crosslinks.matching import MTR_NAMES, canonical
from ipgsite.ipg import languages
from ipgsite.ipg.models import Alias, Paragraph, Part, Penalty, Section

from .reading import JSON, translations


def _names(sections, aliases):
    """Every section's names (titles in each language, aliases, former names), less those two sections share."""
    owners = {}
    for section in sections:
        for code in languages.CODES:
            title = section.title_in(code)
            if title:
                owners.setdefault(canonical(title), set()).add(section.number)
    for number, name in aliases:
        owners.setdefault(canonical(name), set()).add(number)
    names = {}
    for name, numbers in owners.items():
        if len(numbers) == 1:
            names.setdefault(numbers.pop(), []).append(name)
    return names


@require_safe
def linker_data(request):
    """What /linker.js needs to find references in other sites' text, and to say what it shows, in each language."""
    sections = list(Section.objects.in_reading_order())
    aliases = Alias.objects.select_related("section").values_list("section__number", "name")
    names = _names(sections, aliases)
    keys = {}
    for section_id, key, part in Paragraph.objects.in_reading_order().values_list("section_id", "key", "part"):
        keys.setdefault(section_id, []).append((key, part))
    words, messages = {}, {}
    for code in languages.CODES:
        with translation.override(code):
            words[code] = [_("IPG"), _("Infraction Procedure Guide")]
            messages[code] = {
                "missing": _("Not yet translated into %(language)s."),
                "no_text": _("The text of this section is not available yet."),
                "loading": _("Loading…"),
                "failed": _("The text could not be loaded."),
                "example": str(_("Example %(letter)s")),
                # The preview's button that asks the site for the languages the reader compares there (the
                # compare view: "Languages side by side"), and what it says when they chose none.
                "mine": _("Show in the languages I read side by side on the IPG site"),
                "none": _("You have not chosen languages to read side by side on the IPG site yet."),
                "penalties": {value: str(label) for value, label in Penalty.choices},
                # each language as this one calls it, for "missing" ("Not yet translated into 英文" is wrong)
                "languages": {other: languages.called(other) for other in languages.CODES},
            }
    data = {
        "site": request.build_absolute_uri("/"),
        "languages": {code: languages.name(code) for code in languages.CODES},
        "document": sorted({w for ws in words.values() for w in ws}, key=lambda w: (-len(w), w)),
        "prefixes": ["section", "Section", "§"],
        "suffixes": ["節", "节"],
        # what judges write between a section and an example's letter ("2.3, Example C", "2.3 ex. C", "2.3 例(C)")
        "examples": ["Examples", "Example", "examples", "example", "Ex.", "ex.", "范例", "例"],
        "mtr": [n.replace("(?<![A-Za-z])", "") for n in MTR_NAMES.split("|")],
        "messages": messages,
        "sections": [
            {
                "number": section.number,
                "title": translations(section, "title"),
                "penalty": section.penalty or None,
                "names": sorted(names.get(section.number, []), key=lambda n: (-len(n), n)),
                "examples": [key for key, part in keys.get(section.pk, []) if part == Part.EXAMPLE],
                "lead": keys[section.pk][0][0] if section.pk in keys else None,
            }
            for section in sections
        ],
    }
    return JsonResponse(data, json_dumps_params=JSON)
