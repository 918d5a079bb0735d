"""The translate page's form: one form per paragraph or note in the target language, named after the item.

The forms only read what was posted; rights, cleaning, locking and lost updates are `writing`'s.
"""

from django import forms
from django.core.exceptions import ValidationError
from django.forms.utils import ErrorDict
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from ipgsite.editing import writing
from ipgsite.editing.models import Translator
from ipgsite.ipg import languages

MAX_REVISION = 2**31 - 1
NO_REVISION = _("The form does not say which version you started from; reload the page and try again.")


class ItemForm(forms.Form):
    """A paragraph's or note's text in the target language, the revision it was opened at, and the minor flag."""

    text = forms.CharField(required=False, strip=False, widget=forms.Textarea)
    revision = forms.IntegerField(
        min_value=0,
        max_value=MAX_REVISION,
        widget=forms.HiddenInput,
        error_messages=dict.fromkeys(("required", "invalid", "min_value", "max_value"), NO_REVISION),
    )
    # Always read, shown only to editors on English: a crafted flag from anyone else is refused, not ignored.
    minor = forms.BooleanField(required=False)

    def __init__(self, *args, item=None, user=None, code="", **kwargs):
        super().__init__(*args, **kwargs)
        self.item, self.user, self.code = item, user, code
        self.fields["text"].validators = []  # a NUL is writing.clean_text's to word, like the length

    @property
    def posted(self):
        """Whether the post carries this item's text: a post may carry only some of the page's items."""
        return self.is_bound and self.add_prefix("text") in self.data

    @property
    def posted_text(self):
        return self.data.get(self.add_prefix("text"), "")

    def full_clean(self):
        if self.is_bound and not self.posted:  # nothing to check, nothing to save
            self._errors, self.cleaned_data = ErrorDict(), {}
            return
        super().full_clean()

    def clean_text(self):
        return writing.clean_text(self.cleaned_data["text"])

    def clean_minor(self):
        return writing.check_minor(self.user, self.code, self.cleaned_data["minor"])  # PermissionDenied: a 403


class BaseItemFormSet(forms.BaseFormSet):
    """One ItemForm per item of the page in page order, each prefixed with the item's name (`p-<key>`, `n-<id>`),
    so that the posted names say which text they are, whatever the management form counts."""

    default_error_messages = {
        "missing_management_form": _(
            "The form arrived incomplete (%(field_names)s missing or not a number); nothing was saved. "
            "Reload the page and try again."
        ),
    }

    def __init__(self, data=None, *, items, user, code, **kwargs):
        self.items = list(items)
        initial = [{"text": item.text, "revision": item.revision} for item in self.items]
        super().__init__(data, initial=initial, prefix="items", form_kwargs={"user": user, "code": code}, **kwargs)

    def total_form_count(self):
        return len(self.items)

    def initial_form_count(self):
        return len(self.items)

    def add_prefix(self, index):
        return self.items[index].name if isinstance(index, int) else super().add_prefix(index)

    def get_form_kwargs(self, index):
        return {**super().get_form_kwargs(index), "item": self.items[index] if index is not None else None}

    def clean(self):
        known = {form.add_prefix(name) for form in self.forms for name in form.fields}
        suffixes = tuple(f"-{name}" for name in ItemForm.base_fields)
        stray = sorted({key.rsplit("-", 1)[0] for key in self.data if key.endswith(suffixes) and key not in known})
        if stray:
            raise ValidationError(
                ngettext(
                    "This text is not on this page (deleted or moved since you opened it?): %(names)s. "
                    "Nothing was saved; reload the page and try again.",
                    "These texts are not on this page (deleted or moved since you opened it?): %(names)s. "
                    "Nothing was saved; reload the page and try again.",
                    len(stray),
                )
                % {"names": ", ".join(name[:60] for name in stray[:10])},
                code="not_on_page",
            )


ItemFormSet = forms.formset_factory(ItemForm, formset=BaseItemFormSet, extra=0)


class InterfaceLanguageForm(forms.ModelForm):
    class Meta:
        model = Translator
        fields = ["interface_language"]
        widgets = {"interface_language": forms.RadioSelect}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["interface_language"]
        # Each language by its own name, marked with its lang: a choice of language, not words of this page.
        own = [
            (code, format_html('<span lang="{}">{}</span>', languages.html_lang(code), name))
            for code, name in field.choices[1:]
        ]
        field.choices = [("", _("The language my browser asks for")), *own]
