"""Publishing a release, and editing or deleting one: each is a batch of writes (`ipgsite.editing.writing`) that says
the releases changed, so that the pages naming them are rendered again (the after-write step of the page cache).

Publishing freezes the working text (`snapshots`) and records what the release changed (`changes`).
"""

from ipgsite.editing import writing
from ipgsite.editing.writing import CONTENT_FILES

from .changes import record_changes
from .models import Release
from .snapshots import store, working_text


class PublishError(Exception):
    pass


def check_newer(date):
    """Raise PublishError unless `date` is newer than every release."""
    newest = Release.objects.newest_first().first()
    if newest and newest.date >= date:
        raise PublishError(
            f"A release must be newer than the newest one ({newest.date.isoformat()}); {date.isoformat()} is not."
        )


def publish_release(release, by=CONTENT_FILES):
    """Save the unsaved `release` with the working text frozen in it, and what it changed, as `by` (a signed-in
    editor, or the content files for the command line)."""
    with writing.batch(by) as batch:
        check_newer(release.date)
        release.save()
        store(release, working_text())
        record_changes()
        # Pages name the newest release, and readers' offline copies are saved again.
        batch.releases_changed = True
    return release


def publish(date, title="", by=CONTENT_FILES):
    """Publish the working text as the release effective on `date`; it must be newer than every release."""
    return publish_release(Release(date=date, title_en=title or ""), by=by)


def save_release(release, by):
    """Save a published release's title or announcement, as `by` (an editor): its pages, and the next release's,
    name it, and are rendered again."""
    with writing.batch(by) as batch:
        release.save()
        batch.releases_changed = True
    return release


def delete_releases(releases, by):
    """Delete `releases` (a queryset) as `by`: the changes of the release after each are now since the one before
    it (`deleting.delete_release` first checks that no page names it)."""
    with writing.batch(by) as batch:
        releases.delete()
        record_changes()
        batch.releases_changed = True
