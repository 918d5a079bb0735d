from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path

from ipgsite.ipg import views as ipg_views

urlpatterns = [
    path("admin/", admin.site.urls),
    path("lang/<str:code>/", ipg_views.switch_language, name="switch-language"),
]

urlpatterns += i18n_patterns(
    path("", include("ipgsite.ipg.urls")),
    prefix_default_language=True,
)
