from django.urls import path

from . import converters, views  # noqa: F401 (converters registers <section:…>)

app_name = "ipg"

urlpatterns = [
    path("", views.outline, name="outline"),
    path("penalties/", views.penalties, name="penalties"),
    path("ipg/<section:number>/", views.section, name="section"),
]
