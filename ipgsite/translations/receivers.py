"""The translators' groups follow every migrate. (Content writes set off nothing here: see `ipgsite.derived`.)"""

from django.apps import apps as global_apps
from django.db.models.signals import post_migrate

from .groups import ensure_groups


def groups_after_migrate(sender, **kwargs):
    ensure_groups(global_apps)


post_migrate.connect(groups_after_migrate, sender=global_apps.get_app_config("translations"))
