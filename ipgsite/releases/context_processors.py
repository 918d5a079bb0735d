from django.utils import timezone

from ipgsite.caching.versions import RELEASES_KEY, read_once_per_version

from .models import Release


def _read_release_dates():
    return tuple(Release.objects.newest_first().values_list("date", flat=True))


_release_dates = read_once_per_version(_read_release_dates, key=RELEASES_KEY)


def printing(request):
    """The release a printout names when the page shows no other (templates/base.html, .print-source): the newest in
    effect, looked up only when a template asks for it."""

    def newest_release():
        today = timezone.localdate()
        return next((date.isoformat() for date in _release_dates() if date <= today), "")

    return {"newest_release": newest_release}
