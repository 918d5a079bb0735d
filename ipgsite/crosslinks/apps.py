from django.apps import AppConfig


class CrosslinksConfig(AppConfig):
    name = "ipgsite.crosslinks"
    label = "crosslinks"
    verbose_name = "Cross-links"
