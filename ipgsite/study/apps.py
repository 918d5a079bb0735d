from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StudyConfig(AppConfig):
    name = "ipgsite.study"
    label = "study"
    verbose_name = _("Study groups")

    def ready(self):
        from . import checks  # noqa: F401 (registers the font check)
