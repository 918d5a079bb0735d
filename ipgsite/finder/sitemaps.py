from ipgsite.ipg.sitemaps import PagesSitemap


class FinderSitemap(PagesSitemap):
    """The finder's first question; the steps after it are a reader's answers, not pages of their own."""

    priority = 0.6
    pages = ("finder:start",)
