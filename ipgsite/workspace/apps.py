from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WorkspaceConfig(AppConfig):
    name = "ipgsite.workspace"
    verbose_name = _("Translators' workspace")
