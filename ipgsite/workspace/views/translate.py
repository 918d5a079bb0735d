"""The translate page: a section's texts in one language beside their source, saved, previewed, confirmed or
reviewed through the workspace's actions."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from ipgsite.editing import writing
from ipgsite.editing.models import State
from ipgsite.editing.permissions import can_edit_structure, require_translate, translatable_languages
from ipgsite.editing.statuses import SOURCE
from ipgsite.editing.writing import clean_text
from ipgsite.ipg import languages
from ipgsite.ipg.markup import render_markdown
from ipgsite.ipg.models import Part

from .. import worklist
from ..access import known_language, page_context, section_numbered, translators_only
from ..actions import (
    Busy,
    ConfirmTranslation,
    Conflicting,
    Refused,
    ReviewTranslation,
    SaveTexts,
    SaveTranslation,
)
from ..forms import ItemFormSet
from ..items import every_item, reference_language, section_items, suggest

FILTERS = (State.MISSING, State.OUTDATED)
BUTTONS = ("save", "save_next", "preview", "confirm", "review")


def wanted_state(request):
    """The state the page is filtered to (?status=missing or outdated), or None for every text."""
    chosen = request.GET.get("status") or request.POST.get("status") or ""
    return next((state for state in FILTERS if state.name.lower() == chosen), None)


@translators_only
@require_http_methods(["GET", "HEAD", "POST"])
def translate(request, number, code):
    code = known_language(code)
    section = section_numbered(number)
    require_translate(request.user, code)
    reference = reference_language(request.GET.get("from") or request.POST.get("from"), section, code)
    wanted = wanted_state(request)
    items = section_items(section, code, reference)
    status = 200
    if request.method == "POST":
        post = PagePost(request, items, code, wanted)
        status = post.handle()
        if status is None:
            return post.redirect(reference)
    suggest(items, code)
    formset = ItemFormSet(items=every_item(items), user=request.user, code=code)  # what the page now shows
    for item, form in zip(every_item(items), formset, strict=True):
        item.form = form
        item.can_review = ReviewTranslation(request.user, item.obj, code, item.status).allowed()
    for item in items:
        item.filter_to(wanted)
    context = page_context(
        request,
        title=_("Translate %(number)s into %(language)s")
        % {"number": section.number, "language": languages.called(code)},
        section=section,
        code=code,
        lang=languages.html_lang(code),
        reference=reference,
        references=[(c, languages.name(c)) for c in languages.CODES if c != code],
        items=items,
        shown=[item for item in items if item.shown_with(wanted)],
        wanted=wanted.name.lower() if wanted is not None else "",
        filters=[("", _("all"))] + [(state.name.lower(), state.label) for state in FILTERS],
        formset=formset,
        part_labels=dict(Part.choices),
        is_source=code == SOURCE,
        can_mark_minor=code == SOURCE and can_edit_structure(request.user),
        states=State,
        preview_url=reverse("workspace:preview"),
        public_url=public_url(section, code),
    )
    response = render(request, "workspace/translate.html", context, status=status)
    if status == Busy.status:
        response["Retry-After"] = "60"
    return response


def public_url(section, code):
    with translation.override(code):
        return section.get_absolute_url()


class PagePost:
    """One post of the translate page: the button pressed (save one text or all, save and next, preview, confirm,
    review), the texts it carries, and what came of each (kept on its item: saved, refused, in conflict, unsaved)."""

    def __init__(self, request, items, code, wanted):
        self.request, self.user, self.items, self.code, self.wanted = request, request.user, items, code, wanted
        self.button, self.target = next(
            ((name, request.POST[name]) for name in BUTTONS if name in request.POST), ("", "")
        )
        self.by_name = {item.name: item for item in every_item(items)}
        if self.target and self.target not in self.by_name and not (self.button == "save" and self.target == "*"):
            raise Http404(_("This section has no such paragraph or note."))
        self.saved, self.unsaved, self.refused, self.anchor, self.after = 0, 0, False, "", None

    def handle(self):
        """Do what the post asks: None when the page is to be left (a redirect), else the status of the page shown
        again (its texts as the translator left them)."""
        action, target = ("save" if self.button == "save_next" else self.button), self.target
        if self.button == "save_next":  # its place in the work order, before the save changes its state
            item, mine = self.by_name[target], self.languages()
            self.after = worklist.place(item.state, item.position, self.code, mine)
        formset = ItemFormSet(self.request.POST, items=every_item(self.items), user=self.user, code=self.code)
        formset.is_valid()  # a crafted minor flag is refused (403) here, before anything is saved
        if formset.non_form_errors():
            for error in formset.non_form_errors():
                messages.error(self.request, error)
            action, target, self.refused = "", "", True  # saves nothing; what was typed stays in the fields
        posted = [form for form in formset if form.posted]
        try:
            if action in ("confirm", "review"):
                self.set_status(self.by_name[target], action)
            if action == "save":
                self.save([form for form in posted if form.is_valid() and target in ("*", form.item.name)])
        except Busy as busy:
            messages.error(self.request, busy.message)
            for form in posted:  # nothing was written: every text stays as typed, with the version it started from
                form.item.keep(form.posted_text, (form.cleaned_data or {}).get("revision", form.item.revision))
            return Busy.status
        for form in posted:
            if not form.is_valid():
                self.refuse(form.item, [e for errors in form.errors.values() for e in errors], form)
            elif not (action == "save" and target in ("*", form.item.name)):
                self.keep_or_preview(form, action == "preview" and target == form.item.name)
        self.tell(action)
        if self.refused:
            return 400
        if any(item.conflict for item in every_item(self.items)):
            return Conflicting.status
        settled = not any(item.kept or item.errors or item.preview for item in every_item(self.items))
        return None if settled else 200

    def languages(self):
        """The user's languages, this page's first: from the stored groups, never from the post."""
        mine = translatable_languages(self.user)
        return [self.code] + [c for c in mine if c != self.code]

    def save(self, forms):
        saves = {}
        for form in forms:
            item, text, base = form.item, form.cleaned_data["text"], form.cleaned_data["revision"]
            if not self.was_shown(item, base):
                # Unchanged since the page was opened and not in the state it shows: the page had no field for it.
                if text != item.text:
                    self.refuse(item, [self.not_shown(item)], text=text, revision=base)
                continue
            minor = form.cleaned_data["minor"]
            saves[SaveTranslation(self.user, item.obj, self.code, text, base, minor)] = (item, form)
        results = SaveTexts(self.user, self.code, saves).execute()
        for save, result in results.items():
            item, form = saves[save]
            if isinstance(result, Conflicting):
                item.conflict = result.conflict
                item.keep(result.yours, result.conflict.revision)
            elif isinstance(result, Refused):
                self.refuse(item, [result.message], text=form.posted_text, revision=save.base_revision)
            else:
                self.saved += result
                if self.target != "*":
                    self.anchor = item.anchor
                item.reload(self.code)  # after the batch: what the saves set off (statuses) has run

    def was_shown(self, item, base):
        """Whether the page the post came from could show this text to edit: it shows every text, or this one is in
        the state it shows, or it changed since the page was opened (and the lost-update check judges the save)."""
        return self.wanted is None or item.state == self.wanted or base != item.obj.revision

    def not_shown(self, item):
        return _(
            "Not saved: this text is %(state)s, and the page shows only %(wanted)s texts. Show all texts to save it."
        ) % {"state": item.status.get_state_display() if item.status else "—", "wanted": self.wanted.label}

    def refuse(self, item, errors, form=None, text=None, revision=None):
        """The text stays in its field, unsaved, with why."""
        item.errors = errors
        if form is not None:
            text, revision = form.posted_text, (form.cleaned_data or {}).get("revision", item.revision)
        item.keep(text, revision)

    def keep_or_preview(self, form, preview):
        item, text, base = form.item, form.cleaned_data["text"], form.cleaned_data["revision"]
        if text != writing.text_at(item.obj, self.code, base):
            item.keep(text, base)
            self.unsaved += 1
        if preview:
            item.preview = render_markdown(text)

    def set_status(self, item, action):
        kind = ConfirmTranslation if action == "confirm" else ReviewTranslation
        act = kind(self.user, item.obj, self.code, item.status)
        try:
            item.status = act.execute()
        except Busy:
            raise
        except Refused as refusal:
            messages.add_message(self.request, refusal.level, refusal.message)
        else:
            messages.success(self.request, act.done())
        self.anchor = item.anchor

    def tell(self, action):
        request = self.request
        if self.saved:
            text = ngettext("Saved %(count)d text.", "Saved %(count)d texts.", self.saved)
            messages.success(request, text % {"count": self.saved})
        elif action == "save" and not any(item.conflict or item.errors for item in every_item(self.items)):
            messages.info(request, _("Nothing to save: the texts are as stored."))
        if any(item.conflict for item in every_item(self.items)):
            messages.error(
                request,
                _(
                    "Someone else saved some of these texts after you opened the page. Nothing was overwritten: "
                    "compare both versions below, then save again to keep yours."
                ),
            )
        if self.unsaved and action != "preview":
            messages.warning(request, _("Texts you changed but did not save are kept in their fields below."))

    def redirect(self, reference):
        if self.after is not None:
            return self.to_next()
        wanted = f"&status={self.wanted.name.lower()}" if self.wanted is not None else ""
        anchor = f"#{self.anchor}" if self.anchor else ""
        return HttpResponseRedirect(f"{self.request.path}?from={reference}{wanted}{anchor}")

    def to_next(self):
        """After "Save and next": the next text needing work in the user's languages, outdated ones first."""
        following = worklist.next_needing_work(self.languages(), after=self.after)
        if following is None:
            messages.success(self.request, _("Nothing more needs work in your languages."))
            return HttpResponseRedirect(reverse("workspace:dashboard"))
        url = reverse("workspace:translate", args=[following.paragraph.section.number, following.language])
        return HttpResponseRedirect(f"{url}#{worklist.anchor(following)}")


@translators_only
@require_POST
def preview(request):
    """The Markdown as a public page renders it, sanitized: for the translate page's live preview."""
    if not translatable_languages(request.user):
        raise PermissionDenied(_("Only translators and editors can preview texts."))
    try:
        text = clean_text(request.POST.get("text", ""))
    except ValidationError as error:
        return JsonResponse({"error": " ".join(error.messages)}, status=400)
    return JsonResponse({"html": str(render_markdown(text))})
