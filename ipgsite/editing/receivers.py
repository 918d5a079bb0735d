"""The translators' groups follow every migrate; the registered models' rows change only through `writing`.

(What a write sets off is not here: see `settings.AFTER_WRITE`.)
"""

from django.apps import apps as global_apps
from django.db.models.signals import post_migrate, pre_delete, pre_save

from . import registry
from .groups import ensure_groups
from .writing import refuse_writes_outside_a_batch


def only_through_writing(sender, instance, raw=False, **kwargs):
    if not raw:
        refuse_writes_outside_a_batch(instance)


def guard_written_models():
    """Refuse a save or delete of a registered model's row outside a batch of writes."""
    for model in registry.models():
        uid = f"ipgsite.editing.only-through-writing.{model._meta.label}"
        pre_save.connect(only_through_writing, sender=model, dispatch_uid=uid + ".save")
        pre_delete.connect(only_through_writing, sender=model, dispatch_uid=uid + ".delete")


def groups_after_migrate(sender, **kwargs):
    ensure_groups(global_apps)


post_migrate.connect(groups_after_migrate, sender=global_apps.get_app_config("translations"))
