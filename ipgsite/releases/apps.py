from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ReleasesConfig(AppConfig):
    name = "ipgsite.releases"
    label = "releases"
    verbose_name = _("Releases")

    def ready(self):
        from ipgsite.ipg import versions

        from .reading import as_released

        versions.register(as_released)
