"""How a reader cites one paragraph: "IPG 2.3 Example C (2024-09-23)" and its permanent link, in the page's language.

A citation names the release whose text it quotes, and its link shows the paragraph as that release holds it
(`…/<key>/?release=<date>`), so what was cited never changes under the reader. Where the text in the page's
language has changed since the newest release, the citation says it quotes the current text.
"""

from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from ipgsite.ipg import languages
from ipgsite.ipg.models import Section, paragraph_at
from ipgsite.ipg.naming import Place, paragraph_name, place_of  # noqa: F401 (named here too)
from ipgsite.releases.models import Release
from ipgsite.releases.snapshots import section_as_of


def citation(number, place, release):
    """The citation in the active language; `release` is a date (YYYY-MM-DD), or "" for the current text."""
    values = {"number": number, "paragraph": paragraph_name(place), "release": release}
    if release:
        return _("IPG %(number)s %(paragraph)s (%(release)s)") % values
    return _("IPG %(number)s %(paragraph)s (current text)") % values


def permanent_url(request, number, key, code, release):
    with translation.override(code):
        url = reverse("study:paragraph", kwargs={"number": number, "key": key})
    return request.build_absolute_uri(url + (f"?release={release}" if release else ""))


def release_quoted(section, paragraph, code):
    """The newest release in effect that holds this paragraph's current text in `code` (under its key or a former
    one), or "" when the text has changed since (or no release holds it)."""
    release = Release.objects.in_effect().order_by("-date").first()
    if release is None:
        return ""
    content = section_as_of(release, section.number)
    if content is None:
        return ""
    keys = {paragraph.key, *paragraph.former_keys.values_list("key", flat=True)}
    frozen = next((p for p in content["paragraphs"] if p["key"] in keys), None)
    if frozen is None or (frozen["texts"].get(code) or "") != languages.translated(paragraph, "text", code):
        return ""
    return release.date.isoformat()


def frozen_paragraph(version, key):
    """The paragraph `key` as `version` (`ipg.versions.Version`) froze it: under that key, or under the key or a
    former key of the paragraph of the working text's section of the same number that has or had it now. None if
    the version has no such paragraph."""
    held = {p.key: p for p in version.paragraphs}
    if key in held:
        return held[key]
    section = Section.objects.filter(number=version.section.number).first()
    if section is None:
        return None
    paragraph, _current = paragraph_at(section, key)
    if paragraph is None:
        return None
    keys = [paragraph.key, *paragraph.former_keys.values_list("key", flat=True)]
    return next((held[k] for k in keys if k in held), None)
