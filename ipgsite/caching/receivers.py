"""Every deploy migrates: pages rendered by the previous release's templates are not served again.

Content writes make pages stale through `ipgsite.derived`, not through receivers.
"""

from django.db.models.signals import post_migrate
from django.dispatch import receiver

from .versions import content_changed


@receiver(post_migrate)
def schema_migrated(sender, using=None, **kwargs):
    content_changed(using)
