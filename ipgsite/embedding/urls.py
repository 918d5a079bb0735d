"""At the site's root: what other sites include (`/linker.js`) or ask for (`/oembed/`)."""

from django.urls import path

from . import views

app_name = "embedding"

urlpatterns = [
    path("oembed/", views.oembed, name="oembed"),
    path("linker.js", views.linker, name="linker"),
]
