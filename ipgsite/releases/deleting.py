"""Deleting a published release: only by name (`deleterelease DATE`), never as a side effect of a load or an export,
and not while other pages name it, unless forced."""

from pathlib import Path

from django.db import transaction

from ipgsite.editing.models import Status
from ipgsite.editing.writing import CONTENT_FILES
from ipgsite.ipg.models import Section

from .lags import lags_in
from .models import Release
from .publishing import delete_releases


class ReleaseCited(Exception):
    """A release that other pages name: the changes page of the release after it, translations that follow its text."""

    def __init__(self, release, citations):
        self.release, self.citations = release, citations
        super().__init__(f"release {release} is named by: " + "; ".join(citations))


def citations_of(release):
    """What names `release`, one line each: the next release's changes page (what changed since this one), and the
    translations of the working text whose lag marks say they follow the text this release holds."""
    date = release.date.isoformat()
    citations = []
    newer = Release.objects.filter(date__gt=release.date).order_by("date").first()
    if newer is not None:
        citations.append(f"the changes page of release {newer}, which lists what changed since {date}")
    outdated = Status.everything.outdated().filter(paragraph__isnull=False).values("paragraph__section")
    for section in Section.objects.filter(pk__in=outdated).order_by("order"):
        lags = lags_in(section)
        for key, by_code in lags.paragraphs.items():
            codes = [code for code, lag in by_code.items() if lag.release == date]
            if codes:
                citations.append(f"section {section.number}, paragraph {key}: the {', '.join(codes)} text follows it")
        for by_code in lags.notes.values():
            codes = [code for code, lag in by_code.items() if lag.release == date]
            if codes:
                citations.append(f"section {section.number}, a note: the {', '.join(codes)} text follows it")
    return citations


@transaction.atomic
def delete_release(date, path, force=False):
    """Delete the release of `date` and its file at `path`; ReleaseCited when other pages name it, unless `force`.
    (whether the database held it, whether the file was there, the citations it had)."""
    release = Release.objects.filter(date=date).first()
    citations = citations_of(release) if release else []
    if citations and not force:
        raise ReleaseCited(release, citations)
    if release is not None:
        delete_releases(Release.objects.filter(pk=release.pk), by=CONTENT_FILES)
    path = Path(path)
    found = path.exists()
    if found:
        transaction.on_commit(path.unlink)
    return release is not None, found, citations
