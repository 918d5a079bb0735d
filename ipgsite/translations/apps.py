from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TranslationsConfig(AppConfig):
    name = "ipgsite.translations"
    label = "translations"
    verbose_name = _("Translations")

    def ready(self):
        from . import receivers  # noqa: F401  (groups follow every migrate)
