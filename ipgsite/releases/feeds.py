"""The releases as an Atom feed: one entry per release, linking to what changed in it."""

import datetime

from django.contrib.syndication.views import Feed
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from .views import releases_with_counts


class ReleasesFeed(Feed):
    feed_type = Atom1Feed

    def title(self):
        return _("IPG releases: what changed")

    def subtitle(self):
        return _("Each release of the Infraction Procedure Guide, with the sections it changed.")

    def author_name(self):
        return _("Infraction Procedure Guide")  # the site, which writes the entries (RFC 4287 §4.1.1)

    def link(self):
        return reverse("releases:changes")

    def feed_url(self):
        return reverse("releases:feed")

    def items(self):
        return releases_with_counts()

    def item_title(self, item):
        release, _count = item
        title = release.title_in(get_language())
        return f"{release.date.isoformat()} {title}".strip()

    def item_description(self, item):
        _release, count = item
        if count is None:
            return _("The first release recorded here.")
        return ngettext("%(count)d section changed.", "%(count)d sections changed.", count) % {"count": count}

    def item_link(self, item):
        return item[0].get_absolute_url()

    def item_pubdate(self, item):
        return datetime.datetime.combine(item[0].date, datetime.time(), tzinfo=datetime.UTC)

    item_updateddate = item_pubdate
