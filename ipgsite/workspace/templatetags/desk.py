"""The way to the translators' dashboard from the admin's pages."""

from django import template
from django.urls import reverse

from ipgsite.editing.permissions import can_use_translation_pages

register = template.Library()


@register.simple_tag(takes_context=True)
def dashboard_url(context):
    """The dashboard's address for a user who may translate (or edit), else ""."""
    request = context.get("request")
    user = getattr(request, "user", None)
    return reverse("workspace:dashboard") if user is not None and can_use_translation_pages(user) else ""
