from django.contrib.sitemaps import Sitemap
from django.urls import reverse

from .models import Section


class MultilingualSitemap(Sitemap):
    """Every page in every language, each with its alternates in the others."""

    i18n = True
    alternates = True
    x_default = True
    changefreq = "monthly"


class PagesSitemap(MultilingualSitemap):
    """Pages named by their URL names (`pages`)."""

    pages = ()

    def items(self):
        return list(self.pages)

    def location(self, item):
        return reverse(item)


class OutlineSitemap(PagesSitemap):
    priority = 1.0
    pages = ("ipg:outline", "ipg:penalties")


class SectionSitemap(MultilingualSitemap):
    priority = 0.8

    def items(self):
        return Section.objects.in_reading_order()


sitemaps = {"outline": OutlineSitemap, "sections": SectionSitemap}
