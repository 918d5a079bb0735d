from django.urls import path

from . import views

app_name = "api"

urlpatterns = [
    path("ipg/", views.outline, name="outline"),
    path("ipg/<str:number>/", views.section, name="section"),
]
