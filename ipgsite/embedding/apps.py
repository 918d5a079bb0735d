from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EmbeddingConfig(AppConfig):
    name = "ipgsite.embedding"
    label = "embedding"
    verbose_name = _("Links from other sites")
