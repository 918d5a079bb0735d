from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CachingConfig(AppConfig):
    name = "ipgsite.caching"
    verbose_name = _("Page cache")

    def ready(self):
        from . import checks, receivers  # noqa: F401
