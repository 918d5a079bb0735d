from django import template

from ..models import Release
from ..snapshots import last_change as find_last_change

register = template.Library()


@register.simple_tag
def last_change(section):
    """`{% last_change section as change %}`: the newest release that changed the section (see snapshots)."""
    return find_last_change(section.number)


@register.inclusion_tag("releases/print_source.html", takes_context=True)
def print_source(context):
    """A printout's source, printed on every page of it: the page's address and the release of the IPG it shows."""
    request = context.get("request")
    version = context.get("version")
    name = getattr(version, "name", "") if version else ""
    name = name if isinstance(name, str) else ""
    if not name:
        release = Release.objects.in_effect().newest_first().first()
        name = release.date.isoformat() if release else ""
    url = request.build_absolute_uri(request.get_full_path()) if request else ""
    return {"url": url, "release": name, "LANGUAGE_CODE": context.get("LANGUAGE_CODE")}
