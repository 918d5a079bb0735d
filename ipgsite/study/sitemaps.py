from django.contrib.sitemaps import Sitemap
from django.urls import reverse


class QuizSitemap(Sitemap):
    """The quiz's start page in every language; its steps and reading lists are links people make, not pages."""

    i18n = True
    alternates = True
    x_default = True
    changefreq = "monthly"
    priority = 0.5

    def items(self):
        return ["study:quiz"]

    def location(self, item):
        return reverse(item)


sitemaps = {"quiz": QuizSitemap}
