"""Earlier versions of a section's text, for a section page's `?release=`: a feature app registers how they
are found (the releases app does, in its `ready()`), so that the core imports none."""

from dataclasses import dataclass, field

from django.http import Http404
from django.utils.translation import gettext as _


@dataclass
class Version:
    """A section as a version froze it: what `reading.read_section` reads in place of the stored paragraphs."""

    name: str  # e.g. the release's date
    title: dict  # {code: title}
    penalty: str
    paragraphs: list  # objects read like `Paragraph`: key, part, bullet, text_<code>, notes.all()
    links: dict = field(default_factory=dict)  # {"changes": url of what changed since}

    @property
    def kept_parameters(self):
        """What a form on the page keeps of the query, so that it stays on this version."""
        return [("release", self.name)]


_finders = []


def register(finder):
    """`finder(section, value)` returns the section's `Version` named by `value`, or raises Http404."""
    _finders.append(finder)


def version_of(section, value):
    """The section as the version named by `value` (a `?release=` value) froze it; Http404 if none."""
    for finder in _finders:
        return finder(section, value)
    raise Http404(_("This site keeps no earlier versions."))
