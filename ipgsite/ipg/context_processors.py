from django.conf import settings

from . import languages


def site(request):
    """The site's languages by their own names, for the language switcher on every page."""
    return {
        "site_languages": [(code, languages.html_lang(code), name) for code, name in settings.LANGUAGES],
    }
