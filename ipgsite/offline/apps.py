from django.apps import AppConfig


class OfflineConfig(AppConfig):
    name = "ipgsite.offline"
    verbose_name = "Offline reading"
