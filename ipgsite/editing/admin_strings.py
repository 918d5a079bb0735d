"""Strings of Django's own admin that its Simplified Chinese catalogue lacks (Django 5.2), marked here so that
makemessages keeps them in ipgsite/translations/locale/, which translates them for the workspace."""

from django.utils.translation import gettext_noop

DJANGO_ADMIN = [
    gettext_noop("Model name"),
    gettext_noop("Add link"),
    gettext_noop("Change or view list link"),
    gettext_noop("After you’ve created a user, you’ll be able to edit more user options."),
    gettext_noop("Error:"),
    gettext_noop("Forgotten your login credentials?"),
    gettext_noop("In case you’ve forgotten, you are:"),
]
