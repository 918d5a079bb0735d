from django.contrib.sitemaps import Sitemap
from django.urls import reverse


class GlossarySitemap(Sitemap):
    i18n = True
    alternates = True
    x_default = True
    changefreq = "monthly"
    priority = 0.6

    def items(self):
        return ["terms:glossary"]

    def location(self, item):
        return reverse(item)
