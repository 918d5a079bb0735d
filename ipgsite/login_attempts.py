"""django-axes (admin login attempts) as the admin lists it: named in the interface's language like every other app.

django-axes has no Chinese or Japanese catalogue: its model names below are translated in locale/.
"""

from axes.apps import AppConfig
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

# django-axes' own model names, as its models mark them for translation (kept here so catalogues keep them).
AXES_NAMES = [
    gettext_noop("access attempt"),
    gettext_noop("access attempts"),
    gettext_noop("access failure"),
    gettext_noop("access failures"),
    gettext_noop("access log"),
    gettext_noop("access logs"),
]


class LoginAttemptsConfig(AppConfig):
    verbose_name = _("Login attempts")
