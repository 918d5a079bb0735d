from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.contrib.sitemaps.views import sitemap
from django.urls import include, path

from ipgsite.finder.sitemaps import FinderSitemap
from ipgsite.ipg import views as ipg_views
from ipgsite.ipg.sitemaps import sitemaps
from ipgsite.offline import views as offline_views
from ipgsite.releases import views as release_views
from ipgsite.releases.sitemaps import ChangesSitemap
from ipgsite.study.sitemaps import sitemaps as study_sitemaps
from ipgsite.terms.sitemaps import GlossarySitemap
from ipgsite.workspace.views import login as desk_login

urlpatterns = [
    path("admin/translate/exchange/", include("ipgsite.exchange.urls")),
    path("admin/translate/", include("ipgsite.workspace.urls")),
    path("admin/login/", desk_login),  # the admin's sign-in, leading translators to their dashboard
    path("admin/", admin.site.urls),
    path("lang/<str:code>/", ipg_views.switch_language, name="switch-language"),
    path("favicon.ico", ipg_views.favicon, name="favicon"),
    path("", include("ipgsite.offline.urls")),
    path("", include("ipgsite.embedding.urls")),
    path("api/releases/", release_views.api_releases, name="api-releases"),
    path("api/", include("ipgsite.api.urls")),
    path("", include("ipgsite.assistants.urls")),
    path(
        "sitemap.xml",
        sitemap,
        {
            "sitemaps": sitemaps
            | study_sitemaps
            | {"glossary": GlossarySitemap, "finder": FinderSitemap, "changes": ChangesSitemap}
        },
        name="django.contrib.sitemaps.views.sitemap",
    ),
]

urlpatterns += i18n_patterns(
    path("search/", include("ipgsite.search.urls")),
    path("changes/", include("ipgsite.releases.urls")),
    path("glossary/", include("ipgsite.terms.urls")),
    path("finder/", include("ipgsite.finder.urls")),
    path("offline/", offline_views.offline_page, name="offline-page"),
    path("", include("ipgsite.releases.history_urls")),
    path("", include("ipgsite.assistants.markdown_urls")),
    path("", include("ipgsite.study.urls")),
    path("", include("ipgsite.ipg.urls")),
    prefix_default_language=True,
)
