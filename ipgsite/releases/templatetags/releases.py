from django import template

from ..snapshots import last_change as find_last_change

register = template.Library()


@register.simple_tag
def last_change(section):
    """`{% last_change section as change %}`: the newest release that changed the section (see snapshots)."""
    return find_last_change(section.number)
