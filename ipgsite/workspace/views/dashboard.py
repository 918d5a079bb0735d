"""The dashboard: each section × language, with one count of the texts needing work, and what to take next."""

from dataclasses import dataclass, field

from django.db.models import Count
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _

from ipgsite.editing.models import State, Status
from ipgsite.editing.permissions import translatable_languages
from ipgsite.editing.statuses import SOURCE
from ipgsite.ipg import languages
from ipgsite.ipg.models import Section

from .. import worklist
from ..access import page_context, translators_only


@dataclass
class Cell:
    """One section in one language: its paragraphs and notes counted by status."""

    code: str
    counts: dict
    next_key: str = ""  # the anchor on the translate page: a paragraph's key, or note-<id>
    can_edit: bool = False
    note_counts: dict = field(default_factory=dict)
    next_paragraph: str = ""  # the key of the paragraph of the next text (a note's paragraph)

    @property
    def name(self):
        return languages.name(self.code)

    @property
    def lang(self):
        return languages.html_lang(self.code)

    @property
    def total(self):
        return sum(self.counts.values())

    @property
    def notes_total(self):
        return sum(self.note_counts.values())

    @property
    def by_state(self):
        return [(state, self.counts.get(state, 0)) for state in State]

    @property
    def notes_by_state(self):
        return [(state, self.note_counts.get(state, 0)) for state in State]

    def _count(self, state):
        return self.counts.get(state, 0) + self.note_counts.get(state, 0)

    @property
    def outdated(self):
        return self._count(State.OUTDATED)

    @property
    def missing(self):
        return self._count(State.MISSING)

    @property
    def needs_work(self):
        """The one count a cell shows: its paragraphs and notes that are missing or outdated."""
        return self.outdated + self.missing

    @property
    def to_do_label(self):
        """What the one count counts: missing texts, outdated ones, or both ("need work", said in detail below it)."""
        if self.outdated and self.missing:
            return _("need work")
        return State.OUTDATED.label if self.outdated else State.MISSING.label

    @property
    def next_is_note(self):
        return self.next_key.startswith("note-")


@translators_only
def dashboard(request):
    sections = list(Section.objects.with_text().in_reading_order())
    counts = Status.objects.of_paragraphs().counts_by_section_and_language()
    note_counts = Status.of_notes.counts_by_section_and_language()
    next_keys = worklist.next_in_each_cell(None)
    mine = translatable_languages(request.user)
    rows = [
        (
            section,
            [
                Cell(
                    code,
                    counts.get((section.pk, code), {}),
                    next_keys.get((section.pk, code), ("", ""))[0],
                    code in mine,
                    note_counts.get((section.pk, code), {}),
                    next_keys.get((section.pk, code), ("", ""))[1],
                )
                for code in languages.CODES
            ],
        )
        for section in sections
    ]
    context = page_context(
        request,
        title=_("Translations"),
        rows=rows,
        columns=[(code, languages.name(code), languages.html_lang(code)) for code in languages.CODES],
        mine=mine,
        next_for_me=[(code, languages.name(code), worklist.next_needing_work([code])) for code in mine],
        stubs=Section.objects.without_text().count(),
        following_older=following_older_english(),
        interface_language_url=reverse("workspace:interface_language"),
    )
    return render(request, "workspace/dashboard.html", context)


def following_older_english():
    """[(code, name, count)]: per translation language, the paragraphs whose translation follows an older English."""
    counts = dict(Status.objects.of_paragraphs().outdated().values_list("language").annotate(count=Count("pk")))
    return [(code, languages.name(code), counts.get(code, 0)) for code in languages.CODES if code != SOURCE]
