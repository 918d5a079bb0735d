from django.apps import AppConfig


class StudyConfig(AppConfig):
    name = "ipgsite.study"
    label = "study"
    verbose_name = "Study groups"

    def ready(self):
        from . import checks  # noqa: F401 (registers the font check)
