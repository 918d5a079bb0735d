from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AssistantsConfig(AppConfig):
    name = "ipgsite.assistants"
    label = "assistants"
    verbose_name = _("For AI assistants")
