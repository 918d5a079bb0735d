from django.apps import AppConfig


class SearchConfig(AppConfig):
    name = "ipgsite.search"
    label = "search"
    verbose_name = "Search"
