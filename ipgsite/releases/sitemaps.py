from ipgsite.ipg.sitemaps import PagesSitemap


class ChangesSitemap(PagesSitemap):
    """What changed in each release: the list of releases (a release's own page is not indexed)."""

    priority = 0.5
    pages = ("releases:changes",)
