from ipgsite.ipg.sitemaps import PagesSitemap


class GlossarySitemap(PagesSitemap):
    priority = 0.6
    pages = ("terms:glossary",)
