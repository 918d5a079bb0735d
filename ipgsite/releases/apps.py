from django.apps import AppConfig


class ReleasesConfig(AppConfig):
    name = "ipgsite.releases"
    label = "releases"
    verbose_name = "Releases"

    def ready(self):
        from ipgsite.ipg import versions

        from .reading import as_released

        versions.register(as_released)
