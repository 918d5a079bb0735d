from django.apps import AppConfig


class StudyConfig(AppConfig):
    name = "ipgsite.study"
    label = "study"
    verbose_name = "Study groups"
