from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "ipgsite.api"
    label = "api"
    verbose_name = "Machine-readable IPG"
