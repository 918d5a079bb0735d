from django.apps import AppConfig


class IpgConfig(AppConfig):
    name = "ipgsite.ipg"
    label = "ipg"
    verbose_name = "Infraction Procedure Guide"
