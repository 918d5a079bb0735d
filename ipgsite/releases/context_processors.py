from django.utils import timezone

from ipgsite.caching.versions import RELEASES_KEY, read_once_per_version

from .models import Release

_newest_by_day = read_once_per_version(dict, key=RELEASES_KEY)  # {day: the newest release in effect that day}


def printing(request):
    """The release a printout names when the page shows no other (templates/base.html, .print-source): the newest in
    effect, looked up only when a template asks for it, once a day per releases version."""

    def newest_release():
        day, newest = timezone.localdate(), _newest_by_day()
        if day not in newest:
            release = Release.objects.in_effect(today=day).newest_first().first()
            newest[day] = release.date.isoformat() if release else ""
        return newest[day]

    return {"newest_release": newest_release}
