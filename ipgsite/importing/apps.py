from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ImportingConfig(AppConfig):
    name = "ipgsite.importing"
    label = "importing"
    verbose_name = _("Importing")
