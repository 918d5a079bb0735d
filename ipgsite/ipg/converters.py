from django.urls import register_converter


class SectionNumberConverter:
    """2.3, 4.8, or A and B for the appendices; anything else never reaches a view."""

    regex = r"[1-9][0-9]*\.[1-9][0-9]*|[A-Z]"

    def to_python(self, value):
        return value

    def to_url(self, value):
        return value


register_converter(SectionNumberConverter, "section")
