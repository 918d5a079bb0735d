from django.apps import AppConfig


class SearchConfig(AppConfig):
    name = "ipgsite.search"
    label = "search"
    verbose_name = "Search"

    def ready(self):
        from . import signals  # noqa: F401  (connects the receivers that keep the index current)
