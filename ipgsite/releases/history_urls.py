"""A paragraph's history across the releases, at the paragraph's own address: `/<lang>/ipg/<number>/<key>/history/`."""

from django.urls import path

from ipgsite.ipg import converters  # noqa: F401 (registers <section:…>)

from . import history_views

app_name = "history"

urlpatterns = [
    path("ipg/<section:number>/<slug:key>/history/", history_views.paragraph_history, name="paragraph"),
]
