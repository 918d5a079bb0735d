from django.urls import path

from . import views

app_name = "exchange"

urlpatterns = [
    path("upload/", views.upload, name="upload"),
    path("<str:source>/<str:target>/<str:kind>/", views.download, name="download"),
]
