from django.urls import path

from ipgsite.ipg import converters  # noqa: F401 (registers <section:…>)

from . import views

app_name = "api"

urlpatterns = [
    path("ipg/", views.outline, name="outline"),
    path("ipg/<section:number>/", views.section, name="section"),
]
