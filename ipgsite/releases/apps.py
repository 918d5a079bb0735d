from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ReleasesConfig(AppConfig):
    name = "ipgsite.releases"
    label = "releases"
    verbose_name = _("Releases")

    def ready(self):
        from django.db.models.signals import post_delete, post_save

        from ipgsite.caching.versions import releases_changed
        from ipgsite.ipg import versions

        from .models import Release
        from .reading import as_released

        versions.register(as_released)
        # A release's title or links edited, or a release deleted: its pages, and its successor's, are rendered again.
        post_save.connect(lambda **kwargs: releases_changed(), sender=Release, weak=False)
        post_delete.connect(lambda **kwargs: releases_changed(), sender=Release, weak=False)
