"""Any saved or deleted row that a public page may show invalidates the page cache."""

from django.db.models.signals import m2m_changed, post_delete, post_migrate, post_save
from django.dispatch import receiver

from ipgsite.ipg.signals import content_loaded

from .versions import content_changed

# Apps whose rows never appear on a public page: logins, sessions, the admin's log, lockouts.
UNRELATED_APPS = {"admin", "auth", "axes", "contenttypes", "sessions"}


def shows_on_pages(model):
    return model._meta.app_label not in UNRELATED_APPS


@receiver(post_save)
@receiver(post_delete)
def row_changed(sender, using=None, raw=False, **kwargs):
    if not raw and shows_on_pages(sender):
        content_changed(using)


@receiver(m2m_changed)
def relation_changed(sender, instance, action, using=None, **kwargs):
    if action.startswith("post_") and shows_on_pages(type(instance)):
        content_changed(using)


@receiver(content_loaded)
def content_reloaded(sender, **kwargs):
    content_changed()


@receiver(post_migrate)
def schema_migrated(sender, using=None, **kwargs):
    # Every deploy migrates: pages rendered by the previous release's templates are not served again.
    content_changed(using)
