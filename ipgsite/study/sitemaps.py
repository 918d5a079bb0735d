from ipgsite.ipg.sitemaps import PagesSitemap


class QuizSitemap(PagesSitemap):
    """The quiz's start page; its steps and reading lists are links people make, not pages."""

    priority = 0.5
    pages = ("study:quiz",)


sitemaps = {"quiz": QuizSitemap}
