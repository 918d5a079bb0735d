"""The IPG's content in the admin, with django-modeltranslation's language tabs; statuses and history, read-only.

Translators (groups translators-<language>) edit only their languages' fields and notes; editors edit everything.
Every save goes through `writing`, which judges rights by what is stored and refuses lost updates; a field
shown read-only cannot be posted (403).
"""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from modeltranslation.admin import TabbedTranslationAdmin, TranslationStackedInline

from ipgsite.ipg import languages
from ipgsite.ipg.admin import ReadOnlyAdmin
from ipgsite.ipg.models import Alias, Chapter, Note, Paragraph, Section

from . import registry, writing
from .models import Change, Status
from .permissions import can_edit_structure, translatable_languages

# The admin is where translators work: it names the site, in their language, not Django.
admin.site.site_header = gettext_lazy("IPG reference site")
admin.site.site_title = gettext_lazy("IPG reference site administration")
admin.site.index_title = gettext_lazy("Content and translations")


@admin.register(Status)
class StatusAdmin(ReadOnlyAdmin):
    list_display = ["of", "language", "state", "confirmed_by", "confirmed_at", "reviewed_by", "translate"]
    list_filter = ["language", "state", "content_type", "paragraph__section"]
    list_select_related = ["paragraph__section", "content_type", "confirmed_by", "reviewed_by"]

    @admin.display(description=gettext_lazy("of"))
    def of(self, status):
        return status.paragraph if status.paragraph_id else status.target

    @admin.display(description=gettext_lazy("translate"))
    def translate(self, status):
        if status.content_type_id:
            ct = status.content_type
            url = reverse(f"admin:{ct.app_label}_{ct.model}_change", args=[status.object_id])
            return format_html('<a href="{}">{}</a>', url, _("translate"))
        url = reverse("workspace:translate", args=[status.paragraph.section.number, status.language])
        return format_html('<a href="{}#{}">{}</a>', url, status.paragraph.key, _("translate"))


@admin.register(Change)
class ChangeAdmin(ReadOnlyAdmin):
    list_display = ["of", "changed_field", "language", "action", "user", "at", "minor", "revision"]
    list_filter = ["language", "action", "minor", "paragraph__section"]
    list_select_related = ["paragraph__section", "content_type", "user"]
    date_hierarchy = "at"

    @admin.display(description=gettext_lazy("of"))
    def of(self, change):
        return change.paragraph if change.paragraph_id else change.target

    @admin.display(description=gettext_lazy("field"))
    def changed_field(self, change):
        return change.field_label


# The content: every save goes through `writing`, as the signed-in user, judged by what is stored.


def conflict_message(conflict):
    return format_html(
        '{} <blockquote class="tr-theirs">{}</blockquote>{}',
        _("%(who)s saved this text after you opened the page. Their version:") % {"who": conflict.by},
        conflict.theirs or "—",
        _("Yours is kept in the field. Save again to replace theirs with yours."),
    )


def written_columns(model):
    """{column: (field, language)} of the texts a registered model writes one by one through `writing.write_text`,
    each with its history: a paragraph's text, a note's body, a term's names and forms, a question's wording."""
    if not registry.is_written(model):
        return {}
    fields = registry.written(model).fields
    return {languages.column(name, code): (name, code) for name in fields for code in languages.CODES}


class RevisionInput(forms.HiddenInput):
    """The revision a form was opened at. Django's admin writes a label for every field of a fieldset, hidden ones
    too: this one's label names no control, as a label may not name a hidden input."""

    def id_for_label(self, id_):
        return None


class WrittenForm(forms.ModelForm):
    """A content form whose texts are checked as `writing` will check them: rights, cleaning, lost updates."""

    base_revision = forms.IntegerField(widget=RevisionInput, required=False, min_value=0, max_value=2**31 - 1)
    user = None  # set by the admin for each request

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk and hasattr(self.instance, "revision"):
            self.fields["base_revision"].initial = self.instance.revision

    def clean(self):
        cleaned = super().clean()
        model = self._meta.model
        stored = model.objects.filter(pk=self.instance.pk).first() if self.instance.pk else None
        base = cleaned.get("base_revision")
        conflicts = False
        for column, (field, code) in written_columns(model).items():
            if column not in self.fields or not isinstance(cleaned.get(column), str | type(None)):
                continue
            posted = cleaned.get(column) or ""
            try:
                if stored is None:
                    clean = registry.written(model).clean
                    cleaned[column] = clean(None, field, posted) if clean else writing.clean_text(posted)
                    continue
                revision = base if base is not None else stored.revision
                text = writing.check_text(stored, code, posted, self.user, revision, field=field)
            except writing.Conflict as conflict:
                conflicts = True
                self.add_error(column, conflict_message(conflict))
                continue
            except ValidationError as error:
                self.add_error(column, error)
                continue
            cleaned[column] = writing.text_in(stored, code, field) if text is None else text
        self.check_texts(stored, cleaned)
        if conflicts:
            # The next save is a deliberate choice made with both versions in view.
            self.data = self.data.copy()
            self.data[self.add_prefix("base_revision")] = stored.revision
        return cleaned

    def check_texts(self, stored, cleaned):
        """Checks across the texts this save would leave (a model's form adds its own: a term keeps one name)."""


class ParagraphForm(WrittenForm):
    minor_edit = forms.BooleanField(
        required=False,
        label=gettext_lazy("Minor English edit"),
        help_text=gettext_lazy("A typo or punctuation fix: translations stay current (editors only)."),
    )


def text_columns(model):
    """{column: language} of a paragraph's text or a note's body."""
    return {column: code for column, (_field, code) in written_columns(model).items()}


def status_by_language(obj):
    """Each language's state of a term's names or a question's wording, for a read-only admin field."""
    if not obj.pk:
        return "—"
    statuses = {s.language: s for s in obj.statuses.all()}
    return format_html_join(
        " · ",
        "{}: {}",
        ((code, statuses[code].get_state_display() if code in statuses else "—") for code in languages.CODES),
    )


def translated_columns(model):
    """{column: language} for every translated field of a model, e.g. {"title_en": "en", …}."""
    return {
        languages.column(name, code): code
        for name in languages.translated_field_names(model)
        for code in languages.CODES
    }


class LanguageRestrictedAdmin:
    """Read-only for a translator: other languages' fields and the structure. Posting them is refused."""

    structure_editable_by_translators = ()

    def restricted_readonly(self, request, obj=None):
        if can_edit_structure(request.user):
            return []
        mine = translatable_languages(request.user)
        columns = translated_columns(self.model)
        readonly = [column for column, code in columns.items() if code not in mine]
        translated = languages.translated_field_names(self.model)
        for field in self.model._meta.get_fields():
            if not getattr(field, "editable", False) or field.auto_created or not field.concrete:
                continue
            if (
                field.name in translated
                or field.name in columns
                or field.name in self.structure_editable_by_translators
            ):
                continue
            readonly.append(field.name)
        return readonly

    def get_readonly_fields(self, request, obj=None):
        readonly = list(super().get_readonly_fields(request, obj))
        return readonly + [name for name in self.restricted_readonly(request, obj) if name not in readonly]

    def get_form_user(self, form, request):
        return type(form.__name__, (form,), {"user": request.user})


class DeletedThroughWriting:
    """Deleting from the admin, one object or a selection, through `writing`."""

    def delete_model(self, request, obj):
        writing.delete(obj, by=request.user)

    def delete_queryset(self, request, queryset):
        with writing.batch(request.user):
            for obj in queryset:
                writing.delete(obj, by=request.user)


def save_note_form(user, paragraph, pk, data, changed):
    """A note's admin form, inline under its paragraph or on its own page, saved through `writing`."""
    if pk is None:
        return writing.add_note(
            paragraph,
            language=data["language"],
            source=data["source"],
            order=data["order"],
            bodies={code: data.get(column) or "" for column, code in text_columns(Note).items()},
            by=user,
        )
    stored = Note.objects.get(pk=pk)
    structure = {name: data[name] for name in ("paragraph", "language", "source", "order") if name in changed}
    if structure:
        stored = writing.change_note(stored, by=user, **structure)
    base = data.get("base_revision")
    for column, code in text_columns(Note).items():
        if column in changed:
            revision = stored.revision if base is None else base
            writing.write_text(stored, code, data.get(column) or "", by=user, base_revision=revision)
    return stored


def history_list(obj):
    """A registered row's changes, newest first, each with a button that reverts it (for a read-only admin field)."""
    if not obj.pk:
        return "—"
    changes = Change.objects.of(obj).select_related("user")[:50]
    if not changes:
        return "—"
    # The revert button posts the page's form (with its CSRF token) to the revert URL instead. A change that gave a
    # text its first words has none: reverting it would empty the text.
    button = '<button type="submit" formmethod="post" formaction="{}" formnovalidate class="button">{}</button>'
    rows = (
        (
            change.at.strftime("%Y-%m-%d %H:%M"),
            change.who,
            change.field,
            change.language,
            change.before or "—",
            change.after or "—",
            format_html(button, reverse("workspace:revert", args=[change.pk]), _("Revert")) if change.before else "",
        )
        for change in changes
    )
    row = "<li>{} · {} · {} [{}]: {} → {} {}</li>"
    return format_html("<ul>{}</ul>", format_html_join("", row, rows))


class ContentAdmin(DeletedThroughWriting, LanguageRestrictedAdmin, TabbedTranslationAdmin):
    """Every content admin: language tabs, restrictions enforced, saves made through `writing` as the user."""

    def get_form(self, request, obj=None, **kwargs):
        return self.get_form_user(super().get_form(request, obj, **kwargs), request)

    def refuse_forbidden_fields(self, request, obj):
        posted = {key for key in request.POST if "-" not in key}
        refused = sorted(posted & set(self.restricted_readonly(request, obj)))
        for inline in self.get_inline_instances(request, obj):
            if not isinstance(inline, LanguageRestrictedAdmin):
                continue  # e.g. aliases: without the change permission Django ignores what is posted
            formset = inline.get_formset(request, obj)
            prefix = formset.get_default_prefix()
            inline_forbidden = set(inline.restricted_readonly(request, obj)) - {formset.fk.name}
            refused += [
                key
                for key in request.POST
                if key.startswith(prefix + "-") and key.rpartition("-")[2] in inline_forbidden
            ]
        if refused:
            raise PermissionDenied(
                _(
                    "You may not change %(fields)s: those are another language's text or the structure, "
                    "which editors change."
                )
                % {"fields": ", ".join(refused)}
            )

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        if request.method == "POST":
            obj = self.get_object(request, object_id) if object_id else None
            self.refuse_forbidden_fields(request, obj)
            writing.check_minor(request.user, languages.SOURCE, bool(request.POST.get("minor_edit")))
        try:
            with writing.batch(request.user):
                return super().changeform_view(request, object_id, form_url, extra_context)
        except writing.Conflict as conflict:
            # Saved by someone else between the check and the save: nothing of this form was kept.
            messages.error(request, conflict_message(conflict))
            return HttpResponseRedirect(request.get_full_path())

    def save_model(self, request, obj, form, change):
        stored = type(obj).objects.get(pk=obj.pk) if change else obj
        columns = written_columns(self.model)
        for column in columns if not change else ():
            setattr(obj, column, None)  # a new object's texts are written below, each with its history
        values = {
            name: form.cleaned_data[name]
            for name in form.changed_data
            if name in form.cleaned_data and name not in columns and name in self._model_field_names()
        }
        if values or not change:
            stored = writing.save_structure(stored, values, by=request.user)
            obj.pk = stored.pk
        base = form.cleaned_data.get("base_revision")
        # Texts cleared last: a term may lose one name in the save that gives it another.
        for column, (field, code) in sorted(columns.items(), key=lambda item: not form.cleaned_data.get(item[0])):
            if column in form.cleaned_data and (form.cleaned_data[column] or "") != writing.text_in(
                stored, code, field
            ):
                writing.write_text(
                    stored,
                    code,
                    form.cleaned_data[column] or "",
                    by=request.user,
                    base_revision=writing.LATEST if not change or base is None else base,
                    minor=bool(form.cleaned_data.get("minor_edit")),
                    field=field,
                )

    def _model_field_names(self):
        return {f.name for f in self.model._meta.concrete_fields} | {
            f.attname for f in self.model._meta.concrete_fields
        }

    def save_formset(self, request, form, formset, change):
        formset.new_objects, formset.changed_objects, formset.deleted_objects = [], [], []
        parent = form.instance
        fields = {f.name for f in formset.model._meta.concrete_fields} - {formset.fk.name, "id", "revision"}
        for subform in formset.forms:
            instance = subform.instance
            if instance.pk and subform in formset.deleted_forms:
                writing.delete(formset.model.objects.get(pk=instance.pk), by=request.user)
                formset.deleted_objects.append(instance)
                continue
            if not subform.has_changed() or subform in formset.deleted_forms:
                continue
            data = subform.cleaned_data
            if formset.model is Note:
                note = save_note_form(request.user, parent, instance.pk, data, subform.changed_data)
                if instance.pk:
                    formset.changed_objects.append((note, subform.changed_data))
                else:
                    formset.new_objects.append(note)
                continue
            values = {name: data[name] for name in subform.changed_data if name in fields}
            target = (
                formset.model.objects.get(pk=instance.pk) if instance.pk else formset.model(**{formset.fk.name: parent})
            )
            saved = writing.save_structure(target, values, by=request.user)
            (
                formset.changed_objects.append((saved, subform.changed_data))
                if instance.pk
                else formset.new_objects.append(saved)
            )


class NoteInline(LanguageRestrictedAdmin, TranslationStackedInline):
    model = Note
    form = WrittenForm
    extra = 0
    fields = ["language", "source", "order", "body", "base_revision"]
    # Translators add, delete and reorder notes in their own language: `writing` checks the stored language.
    structure_editable_by_translators = ("language", "source", "order")

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)
        formset.form = self.get_form_user(formset.form, request)
        mine = translatable_languages(request.user)
        editor = can_edit_structure(request.user)

        class NewNotesInMyLanguages(formset):
            """Says so in the form; `writing` refuses it anyway."""

            def clean(self):
                super().clean()
                for form in self.forms:
                    language = getattr(form, "cleaned_data", {}).get("language")
                    if not form.instance.pk and form.has_changed() and not editor and language not in mine:
                        raise ValidationError(_("You can add notes only in your own language."))

        return NewNotesInMyLanguages


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
                    reverse("workspace:translate", args=[paragraph.section.number, code]),
                    paragraph.key,
                    code,
                    statuses[code].get_state_display() if code in statuses else "—",
                )
                for code in languages.CODES
            ),
        )
        history = reverse("workspace:history", args=[paragraph.section.number, paragraph.key])
        return format_html('{} · <a href="{}">{}</a>', items, history, _("history"))

    def get_fields(self, request, obj=None):
        fields = list(super().get_fields(request, obj))
        if not can_edit_structure(request.user):
            fields = [f for f in fields if f != "minor_edit"]
        return fields


@admin.register(Note)
class NoteAdmin(ContentAdmin):
    form = WrittenForm
    list_display = ["__str__", "language", "source"]
    list_filter = ["language", "paragraph__section"]
    search_fields = ["body_en", "body_zh_hans", "body_ja"]
    fields = ["paragraph", "language", "source", "order", "body", "base_revision"]
    raw_id_fields = ["paragraph"]

    def has_add_permission(self, request):
        # Notes are added under their paragraph, where the language is checked.
        return can_edit_structure(request.user) and super().has_add_permission(request)

    def has_delete_permission(self, request, obj=None):
        if obj is not None:
            stored = Note.objects.filter(pk=obj.pk).values_list("language", flat=True).first()
            if stored not in translatable_languages(request.user):
                return False
        return super().has_delete_permission(request, obj)

    def get_actions(self, request):
        actions = super().get_actions(request)
        if not can_edit_structure(request.user):
            actions.pop("delete_selected", None)  # a translator deletes notes one by one, in their language
        return actions

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        note = save_note_form(request.user, data.get("paragraph"), obj.pk if change else None, data, form.changed_data)
        obj.pk = note.pk


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
class AliasAdmin(DeletedThroughWriting, admin.ModelAdmin):
    list_display = ["name", "language", "section", "former"]
    list_filter = ["language", "former", "section"]
    search_fields = ["name"]

    def save_model(self, request, obj, form, change):
        target = Alias.objects.get(pk=obj.pk) if change else obj
        saved = writing.save_structure(
            target, {name: form.cleaned_data[name] for name in form.changed_data}, by=request.user
        )
        obj.pk = saved.pk
