#!/usr/bin/env python
import os
import sys


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ipgsite.settings")
    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        settings.INSTALLED_APPS  # noqa: B018 — read the settings now: a deployment missing what it needs stops here, saying what
    except ImproperlyConfigured as error:
        sys.exit(f"Refusing to start: {error}")
    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
