"""At the site's root, so that the service worker's scope covers every language."""

from django.urls import path

from . import views

app_name = "offline"

urlpatterns = [
    path("sw.js", views.service_worker, name="service-worker"),
    path("manifest.webmanifest", views.web_manifest, name="manifest"),
    path("offline/pages.json", views.pages, name="pages"),
]
