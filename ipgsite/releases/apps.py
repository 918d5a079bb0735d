from django.apps import AppConfig


class ReleasesConfig(AppConfig):
    name = "ipgsite.releases"
    label = "releases"
    verbose_name = "Releases"
