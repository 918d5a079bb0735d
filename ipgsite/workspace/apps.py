from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WorkspaceConfig(AppConfig):
    name = "ipgsite.workspace"
    verbose_name = _("Translators' workspace")

    def ready(self):
        from django.contrib import admin

        admin.site.index_template = "workspace/admin_index.html"  # links the dashboard for everyone who translates
