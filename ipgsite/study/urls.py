from django.urls import path

from ipgsite.ipg import converters  # noqa: F401 (registers <section:…>)

from . import quiz_views, views

app_name = "study"

urlpatterns = [
    path("ipg/<section:number>/<slug:key>/", views.paragraph, name="paragraph"),
    path("ipg/<section:number>/<slug:key>/preview.png", views.preview_image, name="preview-image"),
    path("list/", views.reading_list, name="list"),
    path("quiz/", quiz_views.quiz, name="quiz"),
    path("quiz/offline/", quiz_views.quiz_offline, name="quiz-offline"),
]
