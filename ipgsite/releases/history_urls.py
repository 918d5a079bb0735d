"""A paragraph's history across the releases, at the paragraph's own address: `/<lang>/ipg/<number>/<key>/history/`."""

from django.urls import path

from ipgsite.ipg import converters  # noqa: F401 (registers <section:…>)

from . import views

app_name = "history"

urlpatterns = [
    path("ipg/<section:number>/<slug:key>/history/", views.paragraph_history, name="paragraph"),
]
