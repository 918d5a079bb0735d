"""The people of the translators' tests: translators per language, editors, and their admin forms."""

import re
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

from django import forms
from django.contrib.auth.models import Group, User
from django.test import Client

from ipgsite.ipg.models import Alias, Chapter, Note, Paragraph, Section

SEEDS = Path(__file__).resolve().parent / "fixtures" / "seeds"  # copies of shared/seeds
CONTENT = Path(__file__).resolve().parents[1] / "content"


def person(username, *groups, staff=True):
    user = User.objects.create_user(username, password="a-long-test-password", is_staff=staff)
    user.groups.add(*[Group.objects.get(name=name) for name in groups])
    return user


def translator(code, username=None):
    return person(username or f"translator-{code}", f"translators-{code}")


def editor(username="editor"):
    return person(username, "editors")


def client_for(user):
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def paragraph(number, key):
    return Paragraph.objects.get(section__number=number, key=key)


def translate_url(number, code):
    return f"/admin/translate/{number}/{code}/"


# The translate page's management form, for a post made by hand; the item names, not its counts, say what was posted.
MANAGEMENT_FORM = {"items-TOTAL_FORMS": "1", "items-INITIAL_FORMS": "1"}


def translate_form(client, number, code):
    """What the translate page's form would post unchanged: every textarea and hidden input (revisions, the
    management form) as shown; no checkbox is ticked and no button pressed."""
    response = client.get(translate_url(number, code))
    assert response.status_code == 200
    fields = FormFields()
    fields.feed(response.content.decode())
    fields.close()
    assert fields.data["items-TOTAL_FORMS"] and fields.data["from"] == response.context["reference"]
    return fields.data


class FormFields(HTMLParser):
    """The textareas and hidden inputs of the translate page's form, by name."""

    def __init__(self):
        super().__init__()
        self.data, self.in_form, self.textarea = {}, False, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form" and "tr-form" in (attrs.get("class") or "").split():
            self.in_form = True
        elif self.in_form and tag == "input" and attrs.get("type") == "hidden":
            self.data[attrs["name"]] = attrs.get("value") or ""
        elif self.in_form and tag == "textarea":
            self.textarea = attrs["name"]
            self.data[self.textarea] = ""

    def handle_data(self, data):
        if self.textarea:
            self.data[self.textarea] += data

    def handle_endtag(self, tag):
        if tag == "textarea" and self.textarea:
            self.data[self.textarea] = self.data[self.textarea].removeprefix("\n")  # as a browser reads it
            self.textarea = None
        elif tag == "form":
            self.in_form = False


def history_texts(client, number, key, language=""):
    """A paragraph's history on the translators' pages as a person reads it: each change, newest first, as (the text
    before it, the text after it), its one diff read without what it added, and without what it removed."""
    url = f"/admin/translate/{number}/history/{key}/" + (f"?language={language}" if language else "")
    response = client.get(url)
    assert response.status_code == 200
    diffs = re.findall(r'<div class="tr-diff tr-change-diff"[^>]*>(.*?)</div>', response.content.decode(), re.S)

    def read(diff, leaving_out):
        return unescape(re.sub(r"<[^>]+>", "", re.sub(rf"<{leaving_out}>.*?</{leaving_out}>", "", diff, flags=re.S)))

    return [(read(diff, "ins"), read(diff, "del")) for diff in diffs]


def admin_form_data(response):
    """The POST data of an admin change form as the page shows it: main form, inlines, management forms."""
    data = {}
    form = response.context["adminform"].form
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if value is None:
            continue
        if isinstance(value, bool):
            if value:
                data[name] = "on"
            continue
        data[name] = form[name].value() if isinstance(field, forms.JSONField) else getattr(value, "pk", value)
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        for key, value in formset.management_form.initial.items():
            data[f"{formset.prefix}-{key}"] = value
        for sub in formset.forms:
            for name, field in sub.fields.items():
                value = sub.initial.get(name, field.initial)
                if name == "id" and sub.instance.pk:
                    value = sub.instance.pk
                if value is None or value is False:
                    continue
                data[sub.add_prefix(name)] = "on" if value is True else getattr(value, "pk", value)
    return data


def admin_pages():
    """Every page type of the admin and the translators' workspace, for an editor."""
    p = paragraph("2.3", "example-c")
    note = Note.objects.filter(paragraph=p).first()
    return [
        "/admin/",
        "/admin/ipg/section/",
        f"/admin/ipg/section/{Section.objects.get(number='2.3').pk}/change/",
        "/admin/ipg/paragraph/",
        f"/admin/ipg/paragraph/{p.pk}/change/",
        "/admin/ipg/paragraph/add/",
        "/admin/ipg/note/",
        f"/admin/ipg/note/{note.pk}/change/",
        "/admin/ipg/alias/",
        f"/admin/ipg/alias/{Alias.objects.first().pk}/change/",
        "/admin/ipg/chapter/",
        f"/admin/ipg/chapter/{Chapter.objects.first().pk}/change/",
        "/admin/translations/status/",
        "/admin/translations/change/",
        "/admin/translate/",
        "/admin/translate/2.3/ja/",
        "/admin/translate/2.3/history/example-c/",
        "/admin/translate/2.3/import/",
    ]
