from django.urls import path

from . import views

app_name = "ipg"

urlpatterns = [
    path("", views.outline, name="outline"),
    path("penalties/", views.penalties, name="penalties"),
    path("ipg/<str:number>/", views.section, name="section"),
]
