from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CrosslinksConfig(AppConfig):
    name = "ipgsite.crosslinks"
    label = "crosslinks"
    verbose_name = _("Cross-links")
