"""The translators' pages inside the admin: dashboard, translate page, history, import."""

from contextlib import nullcontext
from dataclasses import dataclass, field
from functools import wraps

from django.contrib import admin, messages
from django.contrib.admin.views.decorators import staff_member_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count, Prefetch
from django.http import Http404, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from ipgsite import documents
from ipgsite.contentfiles.statuses import followed_release
from ipgsite.editing import history, writing
from ipgsite.editing.models import Change, State, Status, Translator
from ipgsite.editing.permissions import (
    can_edit_structure,
    can_translate,
    can_use_translation_pages,
    require_translate,
    translatable_languages,
)
from ipgsite.editing.statuses import SOURCE, confirm, mark_reviewed, source_of
from ipgsite.editing.writing import Conflict, clean_text, parse_revision
from ipgsite.importing import applying, proposals
from ipgsite.ipg import languages
from ipgsite.ipg.markup import render_markdown
from ipgsite.ipg.models import Note, Paragraph, Part, Section
from ipgsite.releases.diffing import diff_html
from ipgsite.releases.lags import UNKNOWN, newest_holding, originals_in_releases
from ipgsite.releases.snapshots import english_in_releases, notes_in_releases

from . import memory
from .forms import InterfaceLanguageForm, ItemFormSet


def translators_only(view):
    """Staff who may translate a language, or editors; anyone else gets 403 (and the anonymous, the login page)."""

    @staff_member_required
    @wraps(view)
    def checked(request, *args, **kwargs):
        if not can_use_translation_pages(request.user):
            raise PermissionDenied(_("These pages are for translators and editors."))
        return view(request, *args, **kwargs)

    return checked


def page_context(request, **values):
    return {**admin.site.each_context(request), **values}


def _known_language(code):
    if code not in languages.CODES:
        raise Http404(_("Unknown language"))
    return code


def _section(number):
    return get_object_or_404(Section, number=number)


# Dashboard


@dataclass
class Cell:
    code: str
    counts: dict
    next_key: str = ""  # the anchor on the translate page: a paragraph's key, or note-<id>
    can_edit: bool = False
    note_counts: dict = field(default_factory=dict)

    @property
    def notes_total(self):
        return sum(self.note_counts.values())

    @property
    def notes_by_state(self):
        return [(state, self.note_counts.get(state, 0)) for state in State]

    @property
    def total(self):
        return sum(self.counts.values())

    @property
    def by_state(self):
        return [(state, self.counts.get(state, 0)) for state in State]

    @property
    def needs_work(self):
        return sum(
            counts.get(State.MISSING, 0) + counts.get(State.OUTDATED, 0) for counts in (self.counts, self.note_counts)
        )


@translators_only
def dashboard(request):
    sections = list(Section.objects.with_text().in_reading_order())
    counts = Status.objects.of_paragraphs().counts_by_section_and_language()
    note_counts = Status.of_notes.counts_by_section_and_language()
    next_anchors = {}
    for section_id, code, key, note_id in (
        Status.everything.of_paragraphs()
        .needing_work()
        .in_reading_order()
        .values_list("paragraph__section_id", "language", "paragraph__key", "note_id")
    ):
        next_anchors.setdefault((section_id, code), f"note-{note_id}" if note_id else key)
    mine = translatable_languages(request.user)
    rows = [
        (
            section,
            [
                Cell(
                    code,
                    counts.get((section.pk, code), {}),
                    next_anchors.get((section.pk, code), ""),
                    code in mine,
                    note_counts.get((section.pk, code), {}),
                )
                for code in languages.CODES
            ],
        )
        for section in sections
    ]
    first_needing_work = {}
    for code in mine:
        status = next_needing_work([code])
        if status:
            first_needing_work[code] = status
    context = page_context(
        request,
        title=_("Translations"),
        rows=rows,
        columns=[(code, languages.name(code), languages.html_lang(code)) for code in languages.CODES],
        states=list(State),
        mine=mine,
        next_for_me=[(code, languages.name(code), first_needing_work.get(code)) for code in mine],
        stubs=Section.objects.without_text().count(),
        following_older=_following_older_english(),
        interface_language_url=reverse("workspace:interface_language"),
    )
    return render(request, "workspace/dashboard.html", context)


def _anchor(status):
    return f"note-{status.note_id}" if status.note_id else status.paragraph.key


def _position(status):
    return (
        status.paragraph.section.order,
        status.paragraph.order,
        -1 if status.note_id is None else status.note.order,
        status.note_id or 0,
    )


def next_needing_work(codes, after=None):
    """The first paragraph or note text (a Status) needing work in one of these languages, in reading order, after
    the position `after` (a Status-like position tuple) if given, wrapping round to the start; or None."""
    needing = (
        Status.everything.of_paragraphs()
        .needing_work()
        .filter(language__in=codes)
        .in_reading_order()
        .select_related("paragraph__section", "note")
    )
    if after is None:
        return needing.first()
    first = None
    for status in needing.iterator():
        position = _position(status)
        if first is None:
            first = status
        if position > after[0] or (position == after[0] and codes.index(status.language) > after[1]):
            return status
    return first


def _following_older_english():
    """[(code, name, count)]: per translation language, the paragraphs whose translation follows an older English."""
    counts = dict(Status.objects.of_paragraphs().outdated().values_list("language").annotate(count=Count("pk")))
    return [(code, languages.name(code), counts.get(code, 0)) for code in languages.CODES if code != SOURCE]


# Translate page


@dataclass
class Item:
    """One paragraph or note on the translate page, in the target language."""

    obj: object
    name: str
    text: str
    revision: int
    reference: tuple  # (code, html) of the text shown beside it
    status: object = None
    notes: list = field(default_factory=list)
    conflict: object = None
    errors: list = field(default_factory=list)
    preview: str = ""
    kept: bool = False  # the textarea holds the translator's unsaved text
    form: object = None  # the ItemForm that shows it
    suggestions: list = field(default_factory=list)  # memory.Suggestion: similar texts translated elsewhere

    @property
    def is_note(self):
        return isinstance(self.obj, Note)

    # For an outdated translation: the date of the release whose English (a note's: whose original) it follows, or
    # UNKNOWN.
    follows: str = ""

    @property
    def follows_unknown(self):
        return self.follows == UNKNOWN

    @property
    def english_diff(self):
        """The source's changes since the source this translation follows ("" when that source is unknown)."""
        if self.status is not None and self.status.state == State.OUTDATED and self.status.confirmed_source:
            return diff_html(self.status.confirmed_source, source_of(self.obj)[1])
        return ""

    @property
    def state(self):
        return self.status.state if self.status is not None else None

    # Whether the page shows this text's field: without a filter, or in the state the page is filtered to.
    editable: bool = True

    def editable_with(self, wanted):
        """Whether the page, filtered to one state, shows this text to edit: it is in that state, or holds what the
        translator typed and has not saved (kept, refused, in conflict)."""
        return wanted is None or self.state == wanted or self.kept or self.conflict is not None or bool(self.errors)

    def shown_with(self, wanted):
        """Whether the page, filtered to one state, shows this paragraph: its text or one of its notes is to edit
        (a paragraph shown for its notes shows its own text to read only)."""
        return self.editable_with(wanted) or any(note.editable_with(wanted) for note in self.notes)

    def filter_to(self, wanted):
        self.editable = self.editable_with(wanted)
        for note in self.notes:
            note.editable = note.editable_with(wanted)


def _reference(obj, code, field_name):
    """The text shown beside the editor: in the chosen reference language, else the first that has it."""
    for candidate in [code, *languages.CODES]:
        value = languages.translated(obj, field_name, candidate)
        if value:
            return candidate, render_markdown(value)
    return "", ""


def _items(section, code, reference, suggest=False):
    note_statuses = Prefetch("statuses", queryset=Status.of_notes.filter(language=code), to_attr="target_statuses")
    notes = Prefetch("notes", queryset=Note.objects.order_by("order", "pk").prefetch_related(note_statuses))
    statuses = Prefetch(
        "statuses",
        queryset=Status.objects.filter(language=code).select_related("paragraph__section"),
        to_attr="target_statuses",
    )
    items, in_releases, notes_held = [], None, None
    for paragraph in section.paragraphs.order_by("order").prefetch_related(notes, statuses):
        item = Item(
            obj=paragraph,
            name=f"p-{paragraph.key}",
            text=paragraph.text_in(code),
            revision=paragraph.revision,
            reference=_reference(paragraph, reference, "text"),
            status=paragraph.target_statuses[0] if paragraph.target_statuses else None,
        )
        if item.status is not None and item.status.state == State.OUTDATED:
            if in_releases is None:
                in_releases = english_in_releases(section.number)
            item.follows = followed_release(item.status, in_releases)
        for place, note in enumerate(paragraph.notes.all(), 1):
            note_item = Item(
                obj=note,
                name=f"n-{note.pk}",
                text=note.body_in(code),
                revision=note.revision,
                reference=_reference(note, reference if note.body_in(reference) else note.language, "body"),
                status=note.target_statuses[0] if note.target_statuses else None,
            )
            if note_item.state == State.OUTDATED:
                # The release that holds the original it follows, if one does; UNKNOWN only when the site has no
                # copy of that original at all, since the diff from the one it does have is shown.
                if notes_held is None:
                    notes_held = notes_in_releases(section.number)
                held = originals_in_releases(notes_held, section.number, paragraph.key, place, note.language)
                confirmed = note_item.status.confirmed_source
                release = newest_holding(held, confirmed)
                note_item.follows = release if release != UNKNOWN else UNKNOWN if not confirmed else ""
            item.notes.append(note_item)
        items.append(item)
    if suggest:
        for item in _all_items(items):
            if item.reference[0] and item.reference[0] != code:
                item.suggestions = memory.suggest(item.obj, item.reference[0], code)
    return items


def _all_items(items):
    for item in items:
        yield item
        yield from item.notes


def _reference_language(request, section, code):
    chosen = request.GET.get("from") or request.POST.get("from")
    if chosen in languages.CODES and chosen != code:
        return chosen
    others = [c for c in languages.CODES if c != code]
    return next((c for c in others if section.paragraphs.translated_into(c).exists()), others[0])


@translators_only
@require_http_methods(["GET", "HEAD", "POST"])
def translate(request, number, code):
    code = _known_language(code)
    section = _section(number)
    require_translate(request.user, code)
    reference = _reference_language(request, section, code)
    wanted = _wanted_state(request)
    items = _items(section, code, reference, suggest=request.method != "POST")
    status_code = 200
    if request.method == "POST":
        outcome = _handle_post(request, items, code, wanted)
        if outcome["conflicts"]:
            status_code = 409
        if outcome["refused"]:
            status_code = 400
        if not (
            outcome["refused"] or outcome["conflicts"] or outcome["errors"] or outcome["kept"] or outcome["previewed"]
        ):
            if outcome["next"]:
                return _to_next(request, outcome["next"], code)
            url = f"{request.path}?from={reference}" + (f"&status={wanted.name.lower()}" if wanted is not None else "")
            return HttpResponseRedirect(url + (f"#{outcome['anchor']}" if outcome["anchor"] else ""))
        for item in _all_items(items):
            if item.reference[0] and item.reference[0] != code:
                item.suggestions = memory.suggest(item.obj, item.reference[0], code)
    formset = ItemFormSet(items=_all_items(items), user=request.user, code=code)  # what the page now shows
    for item, form in zip(_all_items(items), formset, strict=True):
        item.form = form
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
        is_editor=can_edit_structure(request.user),
        states=State,
        preview_url=reverse("workspace:preview"),
        public_url=_public_url(section, code),
    )
    return render(request, "workspace/translate.html", context, status=status_code)


FILTERS = (State.MISSING, State.OUTDATED)


def _wanted_state(request):
    """The state the page is filtered to (?status=missing or outdated), or None for every text."""
    chosen = request.GET.get("status") or request.POST.get("status") or ""
    return next((state for state in FILTERS if state.name.lower() == chosen), None)


def _to_next(request, after, code):
    """After "Save and next": the next paragraph or note needing work in the translator's languages, any section."""
    mine = translatable_languages(request.user)  # from the stored groups, never from the post
    following = next_needing_work([code] + [c for c in mine if c != code], after=after)
    if following is None:
        messages.success(request, _("Nothing more needs work in your languages."))
        return HttpResponseRedirect(reverse("workspace:dashboard"))
    url = reverse("workspace:translate", args=[following.paragraph.section.number, following.language])
    return HttpResponseRedirect(f"{url}#{_anchor(following)}")


def _public_url(section, code):
    from django.utils import translation

    with translation.override(code):
        return section.get_absolute_url()


ACTIONS = ("save", "save_next", "preview", "confirm", "review")


def _handle_post(request, items, code, wanted=None):
    user = request.user
    action, target = next(((name, request.POST[name]) for name in ACTIONS if name in request.POST), ("", ""))
    outcome = {
        "saved": 0,
        "conflicts": 0,
        "errors": 0,
        "kept": 0,
        "previewed": False,
        "anchor": "",
        "refused": False,
        "next": None,
    }
    by_name = {item.name: item for item in _all_items(items)}
    if target and target not in by_name and not (action == "save" and target == "*"):
        raise Http404(_("This section has no such paragraph or note."))
    if action == "save_next":
        action, outcome["next"] = "save", (_item_position(by_name[target]), 0)
    formset = ItemFormSet(request.POST, items=_all_items(items), user=user, code=code)
    formset.is_valid()  # a crafted minor flag is refused (403) here, before anything is saved
    if formset.non_form_errors():
        for error in formset.non_form_errors():
            messages.error(request, error)
        action, target, outcome["refused"] = "", "", True  # saves nothing; what was typed stays in the fields
    if action in ("confirm", "review"):
        item = by_name[target]
        _set_status(request, item, code, action)
        outcome["anchor"] = f"note-{item.obj.pk}" if item.is_note else item.obj.key
    saved = []
    with writing.batch(user) if action == "save" else nullcontext():
        for form in formset:
            if form.posted:
                _handle_item(form, code, action, target, outcome, saved, wanted)
    for item in saved:  # after the batch: what the saves set off (statuses) has run
        _reload(item, code)
    if outcome["saved"]:
        messages.success(
            request,
            ngettext("Saved %(count)d text.", "Saved %(count)d texts.", outcome["saved"]) % {"count": outcome["saved"]},
        )
    elif action == "save" and not (outcome["conflicts"] or outcome["errors"]):
        messages.info(request, _("Nothing to save: the texts are as stored."))
    if outcome["conflicts"]:
        messages.error(
            request,
            _(
                "Someone else saved some of these texts after you opened the page. Nothing was overwritten: "
                "compare both versions below, then save again to keep yours."
            ),
        )
    if outcome["kept"] and action != "preview":
        messages.warning(request, _("Texts you changed but did not save are kept in their fields below."))
    return outcome


def _handle_item(form, code, action, target, outcome, saved, wanted=None):
    """Save, keep or preview one posted item, as the action says."""
    item = form.item
    if not form.is_valid():
        item.errors, item.text, item.kept = (
            [e for errors in form.errors.values() for e in errors],
            form.posted_text,
            True,
        )
        item.revision = form.cleaned_data.get("revision", item.revision)
        outcome["errors"] += 1
        return
    text, base, minor = form.cleaned_data["text"], form.cleaned_data["revision"], form.cleaned_data["minor"]
    if action == "save" and target in ("*", item.name) and not _was_shown(item, base, wanted):
        # Unchanged since the page was opened and not in the state it shows: the page had no field for it.
        if text != item.text:
            item.errors, item.text, item.revision, item.kept = [_not_shown(item, wanted)], text, base, True
            outcome["errors"] += 1
        return
    if action == "save" and target in ("*", item.name):
        try:
            changed = writing.write_text(item.obj, code, text, by=form.user, base_revision=base, minor=minor)
        except Conflict as conflict:
            item.conflict, item.text, item.revision, item.kept = conflict, conflict.yours, conflict.revision, True
            outcome["conflicts"] += 1
            return
        except ValidationError as error:
            item.errors, item.text, item.revision, item.kept = error.messages, form.posted_text, base, True
            outcome["errors"] += 1
            return
        outcome["saved"] += changed
        if target != "*":
            outcome["anchor"] = item.obj.key if not item.is_note else f"note-{item.obj.pk}"
        saved.append(item)
        return
    if text != writing.text_at(item.obj, code, base):
        item.text, item.revision, item.kept = text, base, True
        outcome["kept"] += 1
    if action == "preview" and target == item.name:
        item.preview = render_markdown(text)
        outcome["previewed"] = True


def _was_shown(item, base, wanted):
    """Whether the page the post came from could show this text to edit: it shows every text, or this one is in the
    state it shows, or it changed since the page was opened (and the lost-update check judges the save)."""
    return wanted is None or item.state == wanted or base != item.obj.revision


def _not_shown(item, wanted):
    return _(
        "Not saved: this text is %(state)s, and the page shows only %(wanted)s texts. Show all texts to save it."
    ) % {"state": item.status.get_state_display() if item.status else "—", "wanted": wanted.label}


def _reload(item, code):
    obj = type(item.obj).objects.get(pk=item.obj.pk)
    item.obj = obj
    item.text = writing.text_in(obj, code)
    item.revision = obj.revision
    item.kept = False
    if item.is_note:
        item.status = Status.of_notes.filter(note=obj, language=code).first()
    else:
        item.status = Status.objects.get(paragraph=obj, language=code)


def _item_position(item):
    paragraph = item.obj.paragraph if item.is_note else item.obj
    note = item.obj if item.is_note else None
    return (paragraph.section.order, paragraph.order, -1 if note is None else note.order, note.pk if note else 0)


def _set_status(request, item, code, action):
    paragraph, user = item.obj, request.user
    status = item.status
    name = f"{paragraph.paragraph.key} ({_('note')})" if item.is_note else paragraph.key
    if action == "confirm":
        if status is None or status.state != State.OUTDATED:
            messages.info(request, _("%(key)s is not outdated: nothing to confirm.") % {"key": name})
            return
        item.status = confirm(paragraph, code, user)
        messages.success(request, _("%(key)s confirmed against its current source.") % {"key": name})
        return
    if status is None or status.state != State.TRANSLATED:
        messages.error(request, _("Only a current translation can be marked reviewed."))
        return
    if status.confirmed_by_id == user.pk and not can_edit_structure(user):
        messages.error(request, _("Someone other than its translator reviews a translation."))
        return
    item.status = mark_reviewed(paragraph, code, user)
    messages.success(request, _("%(key)s marked reviewed.") % {"key": name})


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


# The translator's own settings


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


# History


@dataclass
class HistoryEntry:
    change: object
    diff: str
    can_revert: bool


@translators_only
def paragraph_history(request, number, key):
    section = _section(number)
    paragraph = get_object_or_404(Paragraph, section=section, key=key)
    changes = Change.objects.of_paragraph(paragraph).select_related("user", "note", "reverts")
    code = request.GET.get("language")
    if code in languages.CODES:
        changes = changes.filter(language=code)
    entries = [
        HistoryEntry(
            change=change,
            diff=diff_html(change.before, change.after),
            can_revert=can_translate(request.user, change.note_data.get("language") or change.language),
        )
        for change in changes
    ]
    context = page_context(
        request,
        title=_("History of %(number)s #%(key)s") % {"number": section.number, "key": key},
        section=section,
        paragraph=paragraph,
        entries=entries,
        language=code if code in languages.CODES else "",
        mine=translatable_languages(request.user),
        language_choices=languages_with_names(),
    )
    return render(request, "workspace/history.html", context)


@translators_only
@require_POST
def revert_change(request, change_id):
    change = get_object_or_404(Change.objects.select_related("paragraph__section"), pk=change_id)
    try:
        history.revert(change, request.user)
    except history.RevertError as error:
        messages.error(request, str(error))
    except ValidationError as error:  # e.g. a term's last name, or a name another term has taken since
        messages.error(request, "; ".join(error.messages))
    else:
        messages.success(
            request, _("Reverted: the text is as it was before that change, and the revert is in the history.")
        )
    if change.content_type_id:  # a term's or a finder question's change: back to its admin page
        ct = change.content_type
        return HttpResponseRedirect(reverse(f"admin:{ct.app_label}_{ct.model}_change", args=[change.object_id]))
    paragraph = change.paragraph
    return HttpResponseRedirect(reverse("workspace:history", args=[paragraph.section.number, paragraph.key]))


# Import


@translators_only
@require_http_methods(["GET", "HEAD", "POST"])
def import_text(request, number):
    """The importer's proposal for every section of a document (a paste or a file), paragraphs and notes, to
    review; a document without a heading is this section's. The ticked rows are applied together."""
    section = _section(number)
    mine = translatable_languages(request.user)
    if not mine:
        raise PermissionDenied(_("Only translators and editors can import text."))
    raw = request.POST.get("raw", "")
    cjk = request.POST.get("cjk", "auto")
    if cjk not in ("auto", *languages.CJK):
        cjk = "auto"
    source = request.POST.get("source", "").strip()[:200]
    found, packed, status_code = [], "", 200
    if request.method == "POST":
        try:
            blocks, packed = _import_document(request, raw)
        except documents.Unreadable as error:
            messages.error(request, str(error))
        else:
            found, problems = proposals.propose_blocks(blocks, None, cjk, default=section.number)
            for problem in problems:
                messages.error(request, problem)
            if "apply" in request.POST and found and not problems:
                response, status_code = _apply_import(request, found, source)
                if response is not None:
                    return response
                found, _problems = proposals.propose_blocks(blocks, None, cjk, default=section.number)
    context = page_context(
        request,
        title=_("Import text into %(number)s") % {"number": section.number},
        section=section,
        raw=raw,
        document=packed,
        accepted=",".join(documents.KINDS),
        cjk=cjk,
        source=source,
        proposals=found,
        alignment=found[0] if found else None,  # the proposal of a paste of one section
        mine=mine,
        editor=can_edit_structure(request.user),
        language_names=dict(languages_with_names()),
    )
    return render(request, "workspace/import.html", context, status=status_code)


def _import_document(request, raw):
    """The blocks of what was sent, and the token that carries them to the apply: a new file, else the pasted
    text, else the document proposed before. A file's size is checked before it is read."""
    upload = request.FILES.get("file")
    if upload is not None:
        problem = documents.too_large(upload.size, upload.name)
        if problem:
            raise documents.Unreadable(problem)
        _kind, blocks = documents.read(upload.read(), upload.name)
        return blocks, documents.pack(blocks)
    if raw.strip():
        return documents.read_text(raw), ""
    if request.POST.get("document"):
        blocks = documents.unpack(request.POST["document"])
        return blocks, request.POST["document"]
    raise documents.Unreadable(_("Paste the section's text, or choose a file, first."))


def _apply_import(request, found, source):
    """Apply the ticked rows of every section proposed: (redirect, 200), or (None, status) with the error shown."""
    # A row is "2:example-c:ja" (the document's second section); a row named without its section is the first's.
    chosen = {value if value.split(":", 1)[0].isdigit() else f"1:{value}" for value in request.POST.getlist("take")}
    batches, revisions = [], {}
    for position, proposal in enumerate(found, 1):
        prefix = f"{position}:"
        batches.append((proposal, {value[len(prefix) :] for value in chosen if value.startswith(prefix)}))
        for row in proposal.rows:
            if not row.is_new:
                posted = request.POST.get(f"revision-{position}-{row.key}", request.POST.get(f"revision-{row.key}"))
                revisions[f"{proposal.number}:{row.key}"] = parse_revision(posted)
        for note in proposal.notes:
            if note.note is not None:
                posted = request.POST.get(f"revision-{position}-note-{note.note.pk}")
                revisions[f"{proposal.number}:note-{note.note.pk}"] = parse_revision(posted)
    try:
        written = applying.apply(batches, request.user, source, revisions)
    except Conflict as conflict:
        messages.error(
            request,
            _("%(key)s [%(language)s] was changed by %(who)s since you made the proposal; it was not imported.")
            % {"key": getattr(conflict.obj, "key", conflict.obj), "language": conflict.code, "who": conflict.by}
            + " "
            + _("Nothing was imported."),
        )
        return None, 409
    except ValidationError as error:
        messages.error(request, " ".join(error.messages) + " " + _("Nothing was imported."))
        return None, 400
    if any(taken - applying.choices(proposal) for proposal, taken in batches):
        messages.warning(request, _("Some selected rows are no longer in the proposal and were skipped."))
    messages.success(
        request,
        ngettext("Imported %(count)d text.", "Imported %(count)d texts.", len(written)) % {"count": len(written)},
    )
    return HttpResponseRedirect(reverse("workspace:dashboard")), 200


def languages_with_names():
    return [(code, languages.name(code)) for code in languages.CODES]
