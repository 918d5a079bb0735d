from django.urls import path

from . import feeds, views

app_name = "releases"

urlpatterns = [
    path("", views.changes, name="changes"),
    path("feed/", feeds.ReleasesFeed(), name="feed"),
    path("<str:date>/", views.release, name="release"),
]
