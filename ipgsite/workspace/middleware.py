"""The workspace speaks the translator's chosen language, whatever the browser asks for."""

from django.urls import reverse
from django.utils import translation

from ipgsite.editing.models import Translator


class InterfaceLanguageMiddleware:
    """After authentication: on the admin's pages (the workspace), a translator's preferred interface language
    replaces the one LocaleMiddleware took from the cookie or Accept-Language."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and request.path.startswith(reverse("admin:index")):
            chosen = Translator.objects.filter(user=user).values_list("interface_language", flat=True).first()
            if chosen:
                translation.activate(chosen)
                request.LANGUAGE_CODE = chosen
        return self.get_response(request)
