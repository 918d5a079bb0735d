"""The Markdown versions of the reading pages, beside them: `…/index.md` (under the language prefixes)."""

from django.urls import path

from ipgsite.ipg import converters  # noqa: F401 (registers <section:…>)

from . import views

app_name = "markdown"

urlpatterns = [
    path("ipg/<section:number>/index.md", views.section, name="section"),
    path("ipg/<section:number>/<slug:key>/index.md", views.paragraph, name="paragraph"),
]
