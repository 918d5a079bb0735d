from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class EditingConfig(AppConfig):
    name = "ipgsite.editing"
    # The label this app had as ipgsite.translations: its tables, migrations and permissions
    # ("translations.translate_ja") keep it, so deployed databases need no migration for the move.
    label = "translations"
    verbose_name = _("Translations")

    def ready(self):
        from . import groups, registry, writing

        registry.autodiscover()  # every app's editing.py registers the models the write path writes
        writing.guard(registry.models())
        post_migrate.connect(groups.after_migrate)
