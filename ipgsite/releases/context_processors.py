from .models import Release


def printing(request):
    """The release a printout names when the page shows no other (templates/base.html, .print-source): the newest in
    effect, looked up only when a template asks for it."""

    def newest_release():
        release = Release.objects.in_effect().newest_first().first()
        return release.date.isoformat() if release else ""

    return {"newest_release": newest_release}
