"""Earlier versions of a section's text, for a section page's `?release=`: the reading layer
`READING_LAYERS["version"]` finds them (the releases app's `reading.as_released`), so that the core imports none.

A version is found by the section's number in it, never through the working text: a section renumbered or removed
since still answers under the number it had.
"""

from dataclasses import dataclass, field

from django.http import Http404
from django.utils.translation import gettext as _

from . import layers


@dataclass
class Version:
    """A section as a version froze it: what `reading.read_section` reads in place of the stored paragraphs."""

    name: str  # e.g. the release's date
    title: dict  # {code: title}
    penalty: str
    paragraphs: list  # objects read like `Paragraph`: key, part, bullet, text_<code>, notes.all()
    links: dict = field(default_factory=dict)  # {"changes": url of what changed since}
    # The section as the version holds it, read like `Section` (number, title_in, penalty, get_absolute_url) with no
    # row behind it (`pk` None); and the sections before and after it in that version, or None.
    section: object = None
    previous: object = None
    next: object = None

    @property
    def kept_parameters(self):
        """What a form on the page keeps of the query, so that it stays on this version."""
        return [("release", self.name)]


def version_of(number, value):
    """Section `number` as the version named by `value` (a `?release=` value) froze it; Http404 if none."""
    finder = layers.version_finder()
    if finder is None:
        raise Http404(_("This site keeps no earlier versions."))
    return finder(number, value)
