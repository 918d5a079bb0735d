from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ReleasesConfig(AppConfig):
    name = "ipgsite.releases"
    label = "releases"
    verbose_name = _("Releases")
