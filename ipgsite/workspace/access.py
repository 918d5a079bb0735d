"""Who reaches the translators' pages, and what every one of them shows around its content."""

from functools import wraps

from django.contrib import admin
from django.contrib.admin.views.decorators import staff_member_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from ipgsite.editing.permissions import can_edit_structure, can_use_translation_pages
from ipgsite.ipg import languages
from ipgsite.ipg.models import Section


def translators_only(view):
    """Staff who may translate a language, or editors; anyone else gets 403 (and the anonymous, the login page)."""

    @staff_member_required
    @wraps(view)
    def checked(request, *args, **kwargs):
        if not can_use_translation_pages(request.user):
            raise PermissionDenied(_("These pages are for translators and editors."))
        return view(request, *args, **kwargs)

    return checked


def works_at_the_desk(user):
    """A translator who is neither an editor nor a superuser: the dashboard is their start page."""
    return can_use_translation_pages(user) and not user.is_superuser and not can_edit_structure(user)


def page_context(request, **values):
    return {**admin.site.each_context(request), **values}


def known_language(code):
    if code not in languages.CODES:
        raise Http404(_("Unknown language"))
    return code


def section_numbered(number):
    return get_object_or_404(Section, number=number)


def languages_with_names():
    return [(code, languages.name(code)) for code in languages.CODES]
