from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TermsConfig(AppConfig):
    name = "ipgsite.terms"
    label = "terms"
    verbose_name = _("Termbase")
