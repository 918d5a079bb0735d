import os
import sys

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ipgsite.settings")

try:
    settings.INSTALLED_APPS  # noqa: B018 — a deployment missing what it needs stops here, saying what (ipgsite/settings.py)
except ImproperlyConfigured as error:
    sys.exit(f"Refusing to start: {error}")

application = get_wsgi_application()
