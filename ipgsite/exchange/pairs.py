"""A language pair as the commands and the dashboard take it, and the names of its files."""

from django.utils.translation import gettext as _

from ipgsite.ipg import languages


class PairError(ValueError):
    pass


def pair(source, target):
    """(source, target) as site codes; raises PairError unless they are two different site languages."""
    codes = {code.lower(): code for code in languages.CODES}
    source, target = codes.get((source or "").lower()), codes.get((target or "").lower())
    if source is None or target is None or source == target:
        raise PairError(
            _("Name two different languages of %(codes)s as source and target.") % {"codes": ", ".join(languages.CODES)}
        )
    return source, target


def filename(source, target, extension, section=None):
    """ipg-en-ja.xlf, ipg-2.3-en-ja.xlf, ipg-en-zh-hans.tmx"""
    return "-".join(["ipg", *([section.number] if section else []), source, target]) + "." + extension
