from django.urls import path

from ipgsite.ipg import converters  # noqa: F401 (registers <section:…>)

from .views import changes, linker, reading

app_name = "api"

urlpatterns = [
    path("openapi.json", reading.openapi_document, name="openapi"),
    path("linker/", linker.linker_data, name="linker"),
    path("changes/", changes.changes, name="changes"),
    path("ipg/", reading.outline, name="outline"),
    path("ipg/<section:number>/", reading.section, name="section"),
    path("ipg/<section:number>/<slug:key>/", reading.paragraph, name="paragraph"),
    path("ipg/<section:number>/<slug:key>/history/", changes.paragraph_history, name="paragraph-history"),
    # Anything else is a name: "hce", "Hidden Card Error", "非公开牌张失误".
    path("ipg/<str:name>/", reading.section_named, name="section-named"),
    path("ipg/<str:name>/<slug:key>/", reading.paragraph_named, name="paragraph-named"),
]
