from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class IpgConfig(AppConfig):
    name = "ipgsite.ipg"
    label = "ipg"
    verbose_name = _("Infraction Procedure Guide")
