"""The translator's own: where signing in leads, and the language the workspace speaks to them."""

from django.contrib import admin
from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from ipgsite.editing.models import Translator

from ..access import page_context, translators_only, works_at_the_desk
from ..forms import InterfaceLanguageForm


def login(request):
    """The admin's sign-in page, which leads a translator who is not an editor to the dashboard rather than to the
    admin's index (where they were bound, unless they came from another page)."""
    response = admin.site.login(request)
    if (
        isinstance(response, HttpResponseRedirect)
        and response.url == reverse("admin:index")
        and works_at_the_desk(request.user)
    ):
        return HttpResponseRedirect(reverse("workspace:dashboard"))
    return response


@translators_only
@require_http_methods(["GET", "HEAD", "POST"])
def interface_language(request):
    """The language of the workspace for this translator, whatever their browser asks for."""
    settings, _created = Translator.objects.get_or_create(user=request.user)
    form = InterfaceLanguageForm(request.POST or None, instance=settings)
    if request.method == "POST" and form.is_valid():
        form.save()
        return HttpResponseRedirect(reverse("workspace:dashboard"))
    context = page_context(request, title=_("Interface language"), form=form)
    return render(request, "workspace/interface_language.html", context, status=400 if form.errors else 200)
