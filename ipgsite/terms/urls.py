from django.urls import path

from . import views

app_name = "terms"

urlpatterns = [
    path("", views.glossary, name="glossary"),
]
