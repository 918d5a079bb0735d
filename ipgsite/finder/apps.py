from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FinderConfig(AppConfig):
    name = "ipgsite.finder"
    label = "finder"
    verbose_name = _("Infraction finder")
