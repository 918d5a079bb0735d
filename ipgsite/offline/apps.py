from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OfflineConfig(AppConfig):
    name = "ipgsite.offline"
    verbose_name = _("Offline reading")
