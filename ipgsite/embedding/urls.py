"""At the site's root: what other sites include (`/linker.js`) or ask for (`/oembed/`), and the window the linker
opens for the reader's languages (`/linker/languages/`)."""

from django.urls import path

from . import views

app_name = "embedding"

urlpatterns = [
    path("oembed/", views.oembed, name="oembed"),
    path("linker.js", views.linker, name="linker"),
    path("linker/languages/", views.linker_languages, name="linker-languages"),
]
