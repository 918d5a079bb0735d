"""The admin for the IPG's content, with django-modeltranslation's language tabs.

Translators (groups translators-<language>) edit only their languages' fields and notes; editors
edit everything. The server enforces it: a field shown read-only cannot be posted (403), and an edit
made from an older revision that would overwrite someone else's change is refused with both versions.
"""

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from modeltranslation.admin import TabbedTranslationAdmin, TranslationStackedInline
from modeltranslation.translator import translator

from ipgsite.translations.editing import check_minor
from ipgsite.translations.history import changed_since, editing, text_at, text_of
from ipgsite.translations.permissions import can_edit_structure, translatable_languages

from . import languages
from .models import Alias, Chapter, Note, Paragraph, Section


def translated_columns(model):
    """{column: language} for the model's translated fields, e.g. {"text_en": "en", …}."""
    return {
        f"{name}_{languages.field_suffix(code)}": code for name in translated_fields(model) for code in languages.CODES
    }


def translated_fields(model):
    if model not in translator.get_registered_models():
        return set()
    return set(translator.get_options_for_model(model).fields)


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows derived from the text (links, statuses, history): shown, never typed in."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class RevisionCheckedForm(forms.ModelForm):
    """Refuses to overwrite a text someone else saved after this form was opened; keeps both versions."""

    base_revision = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=0, max_value=2**31 - 1)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.fields["base_revision"].initial = self.instance.revision

    def clean(self):
        cleaned = super().clean()
        for column in translated_columns(self._meta.model):
            if isinstance(cleaned.get(column), str):
                cleaned[column] = cleaned[column].replace("\r\n", "\n").strip() or None
        base = cleaned.get("base_revision")
        if not self.instance.pk or base is None:
            return cleaned
        stored = type(self.instance).objects.filter(pk=self.instance.pk).values_list("revision", flat=True).first()
        if stored is None or base >= stored:
            return cleaned
        conflicts = False
        for column, code in translated_columns(self._meta.model).items():
            if column not in self.fields or column not in cleaned:
                continue
            yours, theirs = cleaned[column] or "", text_of(self.instance, code)
            since = list(changed_since(self.instance, code, base))
            if not since or yours == theirs:
                continue
            if yours == text_at(self.instance, code, base):
                cleaned[column] = theirs or None  # untouched here: keep what the other person saved
                continue
            conflicts = True
            who = ", ".join(sorted({str(change.who) for change in since}))
            self.add_error(
                column,
                format_html(
                    "{} <blockquote class=\"tr-theirs\">{}</blockquote>{}",
                    _("%(who)s saved this text after you opened the page. Their version:") % {"who": who},
                    theirs or "—",
                    _("Yours is kept in the field. Save again to replace theirs with yours."),
                ),
            )
        if conflicts:
            # The next save is a deliberate choice made with both versions in view.
            self.data = self.data.copy()
            self.data[self.add_prefix("base_revision")] = stored
        return cleaned


class ParagraphForm(RevisionCheckedForm):
    minor_edit = forms.BooleanField(
        required=False,
        label=gettext_lazy("Minor English edit"),
        help_text=gettext_lazy("A typo or punctuation fix: translations stay current (editors only)."),
    )


class LanguageRestrictedAdmin:
    """Read-only for a translator: other languages' fields and the structure. Posting them is refused."""

    structure_editable_by_translators = ()

    def restricted_readonly(self, request, obj=None):
        if can_edit_structure(request.user):
            return []
        mine = translatable_languages(request.user)
        readonly = [column for column, code in translated_columns(self.model).items() if code not in mine]
        translated = translated_fields(self.model)
        for field in self.model._meta.get_fields():
            if not getattr(field, "editable", False) or field.auto_created or not field.concrete:
                continue
            if field.name in translated or field.name in translated_columns(self.model):
                continue
            if field.name in self.structure_editable_by_translators:
                continue
            readonly.append(field.name)
        if not can_edit_structure(request.user) and "minor_edit" in getattr(self.form, "base_fields", {}):
            readonly.append("minor_edit")
        return readonly

    def get_readonly_fields(self, request, obj=None):
        readonly = list(super().get_readonly_fields(request, obj))
        return readonly + [name for name in self.restricted_readonly(request, obj) if name not in readonly]


class ContentAdmin(LanguageRestrictedAdmin, TabbedTranslationAdmin):
    """Every content admin: language tabs, restrictions enforced, saves recorded as the user's."""

    def refuse_forbidden_fields(self, request, obj):
        forbidden = {name for name in self.restricted_readonly(request, obj) if name != "minor_edit"}
        posted = {key for key in request.POST if "-" not in key}
        refused = sorted(posted & forbidden)
        for inline in self.get_inline_instances(request, obj):
            if not isinstance(inline, LanguageRestrictedAdmin):
                continue  # e.g. aliases: without the change permission Django ignores what is posted
            formset = inline.get_formset(request, obj)
            prefix = formset.get_default_prefix()
            inline_forbidden = set(inline.restricted_readonly(request, obj)) - {formset.fk.name}
            for key in request.POST:
                if key.startswith(prefix + "-") and key.rpartition("-")[2] in inline_forbidden:
                    refused.append(key)
        if refused:
            raise PermissionDenied(
                _("You may not change %(fields)s: those are another language's text or the structure, which editors change.")
                % {"fields": ", ".join(refused)}
            )

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        minor = False
        if request.method == "POST":
            obj = self.get_object(request, object_id) if object_id else None
            self.refuse_forbidden_fields(request, obj)
            minor = check_minor(request.user, "en", bool(request.POST.get("minor_edit")))
        with editing(user=request.user, minor=minor):
            return super().changeform_view(request, object_id, form_url, extra_context)

    def delete_view(self, request, object_id, extra_context=None):
        with editing(user=request.user):
            return super().delete_view(request, object_id, extra_context)

    def delete_queryset(self, request, queryset):
        with editing(user=request.user):
            super().delete_queryset(request, queryset)


class NoteInline(LanguageRestrictedAdmin, TranslationStackedInline):
    model = Note
    form = RevisionCheckedForm
    extra = 0
    fields = ["language", "source", "order", "body", "base_revision"]
    # Translators add and delete notes in their own language (checked in the formset).
    structure_editable_by_translators = ("language", "source", "order")

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)
        user = request.user

        class NotesInMyLanguages(formset):
            def clean(self):
                super().clean()
                if can_edit_structure(user):
                    return
                mine = translatable_languages(user)
                for form in self.forms:
                    if not getattr(form, "cleaned_data", None):
                        continue
                    stored = form.instance if form.instance.pk else None
                    language = form.cleaned_data.get("language")
                    if stored is None and language not in mine:
                        raise ValidationError(_("You can add notes only in your own language."))
                    if stored is not None and stored.language not in mine:
                        if form.cleaned_data.get("DELETE"):
                            raise PermissionDenied(_("You can delete notes only in your own language."))
                        touched = {"language", "source", "order"} & set(form.changed_data)
                        if touched:
                            raise PermissionDenied(
                                _("You can change only your language's text of a note in another language.")
                            )

        return NotesInMyLanguages


@admin.register(Paragraph)
class ParagraphAdmin(ContentAdmin):
    form = ParagraphForm
    inlines = [NoteInline]
    list_display = ["key", "section", "part", "languages_present", "status_links"]
    list_filter = ["section", "part"]
    search_fields = ["key", "text_en", "text_zh_hans", "text_ja"]
    list_select_related = ["section"]
    fields = ["section", "key", "part", "order", "bullet", "text", "minor_edit", "base_revision", "status_links"]
    readonly_fields = ["status_links"]

    @admin.display(description=gettext_lazy("languages"))
    def languages_present(self, paragraph):
        return ", ".join(paragraph.languages())

    @admin.display(description=gettext_lazy("status, translate, history"))
    def status_links(self, paragraph):
        if not paragraph.pk:
            return "—"
        statuses = {s.language: s for s in paragraph.statuses.all()}
        items = format_html_join(
            " · ",
            '<a href="{}#{}">{}: {}</a>',
            (
                (
                    reverse("translations:translate", args=[paragraph.section.number, code]),
                    paragraph.key,
                    code,
                    statuses[code].get_state_display() if code in statuses else "—",
                )
                for code in languages.CODES
            ),
        )
        history = reverse("translations:history", args=[paragraph.section.number, paragraph.key])
        return format_html('{} · <a href="{}">{}</a>', items, history, _("history"))

    def get_fields(self, request, obj=None):
        fields = list(super().get_fields(request, obj))
        if not can_edit_structure(request.user):
            fields = [f for f in fields if f != "minor_edit"]
        return fields


@admin.register(Note)
class NoteAdmin(ContentAdmin):
    form = RevisionCheckedForm
    list_display = ["__str__", "language", "source"]
    list_filter = ["language", "paragraph__section"]
    search_fields = ["body_en", "body_zh_hans", "body_ja"]
    fields = ["paragraph", "language", "source", "order", "body", "base_revision"]
    raw_id_fields = ["paragraph"]

    def has_add_permission(self, request):
        # Notes are added under their paragraph, where the language is checked.
        return can_edit_structure(request.user) and super().has_add_permission(request)

    def has_delete_permission(self, request, obj=None):
        if obj is not None and obj.language not in translatable_languages(request.user):
            return False
        return super().has_delete_permission(request, obj)

    def get_actions(self, request):
        actions = super().get_actions(request)
        if not can_edit_structure(request.user):
            actions.pop("delete_selected", None)  # a translator deletes notes one by one, in their language
        return actions


class AliasInline(admin.TabularInline):
    model = Alias
    extra = 0


@admin.register(Section)
class SectionAdmin(ContentAdmin):
    list_display = ["number", "title", "penalty", "chapter"]
    list_filter = ["chapter", "penalty"]
    search_fields = ["number", "title_en", "title_zh_hans", "title_ja"]
    inlines = [AliasInline]


@admin.register(Chapter)
class ChapterAdmin(ContentAdmin):
    list_display = ["number", "title", "order"]


@admin.register(Alias)
class AliasAdmin(admin.ModelAdmin):
    list_display = ["name", "language", "section", "former"]
    list_filter = ["language", "former", "section"]
    search_fields = ["name"]
