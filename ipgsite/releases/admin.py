"""Releases in the admin: adding one publishes the working text; afterwards only its title and links change."""

from django import forms
from django.contrib import admin
from django.db import models
from modeltranslation.admin import TabbedTranslationAdmin

from ipgsite.editing.permissions import can_edit_structure
from ipgsite.ipg import languages

from .models import Release
from .publishing import PublishError, check_newer, delete_releases, publish_release, save_release


def https_by_default(db_field, **kwargs):
    if isinstance(db_field, models.URLField):
        kwargs["assume_scheme"] = "https"
    return db_field.formfield(**kwargs)


class ReleaseForm(forms.ModelForm):
    class Meta:
        model = Release
        fields = [
            "date",
            *(languages.column(name, code) for name in ("title", "announcement") for code in languages.CODES),
        ]
        formfield_callback = https_by_default

    def clean_date(self):
        date = self.cleaned_data["date"]
        try:
            check_newer(date)
        except PublishError as exc:
            raise forms.ValidationError(str(exc)) from None
        return date


@admin.register(Release)
class ReleaseAdmin(TabbedTranslationAdmin):
    form = ReleaseForm
    list_display = ("date", "title", "frozen_sections")

    def get_fields(self, request, obj=None):
        fields = super().get_fields(request, obj)
        return ["date", *(f for f in fields if f != "date")]

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        if isinstance(db_field, models.URLField):
            kwargs["assume_scheme"] = "https"
        return super().formfield_for_dbfield(db_field, request, **kwargs)

    def get_readonly_fields(self, request, obj=None):
        return ("date",) if obj else ()

    @admin.display(description="frozen sections")
    def frozen_sections(self, release):
        return release.sections.count()

    def has_add_permission(self, request):
        return can_edit_structure(request.user)

    def has_change_permission(self, request, obj=None):
        return can_edit_structure(request.user)

    def has_delete_permission(self, request, obj=None):
        return can_edit_structure(request.user)

    def delete_model(self, request, obj):
        delete_releases(Release.objects.filter(pk=obj.pk), by=request.user)

    def delete_queryset(self, request, queryset):
        delete_releases(queryset, by=request.user)

    def save_model(self, request, obj, form, change):
        if change:
            save_release(obj, by=request.user)
        else:
            publish_release(obj, by=request.user)
