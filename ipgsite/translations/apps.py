from django.apps import AppConfig


class TranslationsConfig(AppConfig):
    name = "ipgsite.translations"
    label = "translations"
    verbose_name = "Translations"

    def ready(self):
        from . import receivers  # noqa: F401  (groups follow every migrate)
