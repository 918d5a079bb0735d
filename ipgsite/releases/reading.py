"""A section as a release froze it, read by the section page (`?release=<date>`) like the stored section."""

from functools import cached_property
from types import SimpleNamespace

from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext as _

from ipgsite.ipg import languages
from ipgsite.ipg.models import Section
from ipgsite.ipg.versions import Version

from .models import Release, parse_date
from .snapshots import last_change, section_as_of


class Notes(list):
    def all(self):
        return self


class Frozen:
    """A paragraph or note as frozen: the attributes `ipg.reading` reads of the model, and no row behind it."""

    pk = None

    def __init__(self, field, texts, **attributes):
        self.field = field
        for code in languages.CODES:
            setattr(self, languages.column(field, code), texts.get(code) or None)
        self.__dict__.update(attributes)

    def text_in(self, code):
        return languages.translated(self, self.field, code)

    body_in = text_in

    def languages(self):
        return [code for code in languages.CODES if self.text_in(code)]


def frozen_paragraphs(content, release=""):
    """The paragraphs of a section as `content` froze them; each knows the release (its date) and where it stands,
    so that its lag can be looked up (`lags.lags_in_release`)."""
    number = content.get("number", "")
    return [
        Frozen(
            "text",
            paragraph["texts"],
            key=paragraph["key"],
            part=paragraph["part"],
            bullet=paragraph["bullet"],
            order=paragraph["order"],
            release=release,
            number=number,
            notes=Notes(
                Frozen(
                    "body",
                    note["bodies"],
                    language=note["language"],
                    source=note["source"],
                    release=release,
                    number=number,
                    paragraph_key=paragraph["key"],
                    place=place,
                )
                for place, note in enumerate(paragraph["notes"], 1)
            ),
        )
        for paragraph in content["paragraphs"]
    ]


def release_named(value):
    """The release in effect whose date is `value` (YYYY-MM-DD), or Http404."""
    date = parse_date(value)
    release = Release.objects.in_effect().filter(date=date).first() if date else None
    if release is None:
        raise Http404(_("There is no release of that date."))
    return release


class ReleasedSection:
    """A section as a release froze it, read by the pages like `Section`: its number, order, title in each language
    and penalty, as the release holds them, and no row behind it (`pk` None), so that nothing the working text has
    done since (a renumbering, a removal, a new section under its number) changes what it says."""

    pk = None

    def __init__(self, number, order, title, penalty):
        self.number, self.order, self.penalty = number, order, penalty
        for code in languages.CODES:
            setattr(self, languages.column("title", code), title.get(code) or None)

    def __str__(self):
        return f"{self.number} {self.title_en}"

    def title_in(self, code):
        return languages.translated(self, "title", code)

    def get_absolute_url(self):
        """The address of the section's number: what it holds now, without the release's query."""
        return reverse("ipg:section", kwargs={"number": self.number})

    @cached_property
    def chapter(self):
        """The chapter its number says ("2" for 2.3); an appendix's is the one the working text files appendices in."""
        number = self.number.partition(".")[0] if "." in self.number else None
        if number is None:
            held = Section.objects.filter(number__regex=r"^[A-Z]$").select_related("chapter")
            found = next((s for s in held if s.number == self.number), None) or next(iter(held), None)
            number = found.chapter.number if found else ""
        return SimpleNamespace(number=number)


def _released(frozen):
    content = frozen.content
    return ReleasedSection(frozen.number, frozen.order, content["title"], content["penalty"])


def as_released(number, value):
    """The version layer of the reading pages (settings.READING_LAYERS["version"], `ipg.versions`): section `number`
    as the release of date `value` froze it, found in the release alone, with the sections before and after it in
    that release."""
    release = release_named(value)
    content = section_as_of(release, number)
    if content is None:
        raise Http404(_("This section was not in the release of %(date)s.") % {"date": release.date.isoformat()})
    frozen = release.sections.only("number", "order", "content", "release")
    previous = frozen.filter(order__lt=content["order"]).order_by("-order").first()
    following = frozen.filter(order__gt=content["order"]).order_by("order").first()
    return Version(
        name=release.date.isoformat(),
        title=content["title"],
        penalty=content["penalty"],
        paragraphs=frozen_paragraphs(content, release.date.isoformat()),
        links={"changes": reverse("releases:release", args=[release.date.isoformat()])},
        section=ReleasedSection(number, content["order"], content["title"], content["penalty"]),
        previous=_released(previous) if previous else None,
        next=_released(following) if following else None,
    )


def section_context(section, version):
    """A section layer of the reading pages (settings.READING_LAYERS): the release that last changed the section,
    for the line under its title and the "Changed in" marks; none on an older release's page."""
    return {"change": None if version else last_change(section.number)}
