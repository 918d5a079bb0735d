"""Who may edit what. Checked on the server for every change, whatever the form showed."""

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from ipgsite.ipg import languages

GROUP_PREFIX = "translators-"
EDITORS = "editors"


def translate_permission(code):
    return f"translate_{languages.field_suffix(code)}"


def can_translate(user, code):
    return code in languages.CODES and user.is_active and user.has_perm(f"translations.{translate_permission(code)}")


def translatable_languages(user):
    """The languages whose text and notes the user may edit, in the site's order."""
    return [code for code in languages.CODES if can_translate(user, code)]


def can_edit_structure(user):
    """Editors: keys, parts, order, sections, aliases, and adding or deleting paragraphs."""
    return user.is_active and user.has_perm("translations.edit_structure")


def require_translate(user, code):
    if not can_translate(user, code):
        name = languages.called(code) if code in languages.CODES else code
        raise PermissionDenied(
            _("You may not edit the %(language)s text: that needs membership of %(group)s, or an editor.")
            % {"language": name, "group": GROUP_PREFIX + code}
        )


def require_structure(user):
    if not can_edit_structure(user):
        raise PermissionDenied(_("Only editors change keys, parts, order, sections and aliases."))


def can_use_translation_pages(user):
    """Staff with a language to translate, or an editor: who may open the dashboard, history and import."""
    return user.is_active and user.is_staff and bool(translatable_languages(user))


def group_name(code):
    return GROUP_PREFIX + code
