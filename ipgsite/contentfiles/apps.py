from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ContentFilesConfig(AppConfig):
    name = "ipgsite.contentfiles"
    verbose_name = _("Content files")
