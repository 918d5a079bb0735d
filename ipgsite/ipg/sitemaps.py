from django.contrib.sitemaps import Sitemap
from django.urls import reverse

from .models import Section


class OutlineSitemap(Sitemap):
    i18n = True
    alternates = True
    x_default = True
    changefreq = "monthly"
    priority = 1.0

    def items(self):
        return ["ipg:outline", "ipg:penalties"]

    def location(self, item):
        return reverse(item)


class SectionSitemap(Sitemap):
    i18n = True
    alternates = True
    x_default = True
    changefreq = "monthly"
    priority = 0.8

    def items(self):
        return Section.objects.in_reading_order()


sitemaps = {"outline": OutlineSitemap, "sections": SectionSitemap}
