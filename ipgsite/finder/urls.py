from django.urls import path, re_path

from . import views

app_name = "finder"

urlpatterns = [
    path("", views.step, name="start"),
    # The answers so far, one path segment each: /en/finder/in-game/no-trigger/no/
    re_path(r"^(?P<answers>[a-z0-9-]+(?:/[a-z0-9-]+)*)/$", views.step, name="step"),
]
