from django.apps import AppConfig


class CrosslinksConfig(AppConfig):
    name = "ipgsite.crosslinks"
    label = "crosslinks"
    verbose_name = "Cross-links"

    def ready(self):
        from . import signals  # noqa: F401  (connects the receivers that keep links current)
