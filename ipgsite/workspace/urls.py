from django.urls import path

from . import views

app_name = "workspace"

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("preview/", views.preview, name="preview"),
    path("language/", views.interface_language, name="interface_language"),
    path("changes/<int:change_id>/revert/", views.revert_change, name="revert"),
    path("<str:number>/import/", views.import_text, name="import"),
    path("<str:number>/history/<str:key>/", views.paragraph_history, name="history"),
    path("<str:number>/<str:code>/", views.translate, name="translate"),
]
