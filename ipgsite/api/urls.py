from django.urls import path

from ipgsite.ipg import converters  # noqa: F401 (registers <section:…>)

from . import views

app_name = "api"

urlpatterns = [
    path("openapi.json", views.openapi_document, name="openapi"),
    path("linker/", views.linker_data, name="linker"),
    path("changes/", views.changes, name="changes"),
    path("ipg/", views.outline, name="outline"),
    path("ipg/<section:number>/", views.section, name="section"),
    path("ipg/<section:number>/<slug:key>/", views.paragraph, name="paragraph"),
    path("ipg/<section:number>/<slug:key>/history/", views.paragraph_history, name="paragraph-history"),
    # Anything else is a name: "hce", "Hidden Card Error", "非公开牌张失误".
    path("ipg/<str:name>/", views.section_named, name="section-named"),
    path("ipg/<str:name>/<slug:key>/", views.paragraph_named, name="paragraph-named"),
]
