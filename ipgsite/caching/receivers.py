"""Every deploy migrates: pages rendered by the previous release's templates are not served again, a published
release's pages included.

Content writes make pages stale through `ipgsite.editing.after_write`, not through receivers.
"""

from django.db.models.signals import post_migrate
from django.dispatch import receiver

from .versions import content_changed, releases_changed


@receiver(post_migrate)
def schema_migrated(sender, using=None, **kwargs):
    content_changed(using)
    releases_changed(using)
