from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EditingConfig(AppConfig):
    name = "ipgsite.editing"
    # The label this app had as ipgsite.translations: its tables, migrations and permissions
    # ("translations.translate_ja") keep it, so deployed databases need no migration for the move.
    label = "translations"
    verbose_name = _("Translations")

    def ready(self):
        from . import receivers  # noqa: F401  (groups follow every migrate)
