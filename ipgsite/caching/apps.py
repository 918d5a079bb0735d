from django.apps import AppConfig


class CachingConfig(AppConfig):
    name = "ipgsite.caching"
    verbose_name = "Page cache"

    def ready(self):
        from . import checks, receivers  # noqa: F401
