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

from ipgsite.ipg import languages
from ipgsite.ipg.markup import render_markdown
from ipgsite.ipg.models import Note, Paragraph, Part, Section
from ipgsite.releases.snapshots import english_in_releases

from . import history, importing, writing
from .forms import ItemFormSet
from .models import Change, State, Status
from .permissions import (
    can_edit_structure,
    can_translate,
    can_use_translation_pages,
    require_translate,
    translatable_languages,
)
from .status import SOURCE, UNKNOWN, confirm, diff_html, followed_release, mark_reviewed
from .writing import Conflict, clean_text, parse_revision


def translators_only(view):
    """Staff who may translate a language, or editors; anyone else gets 403 (and the anonymous, the login page)."""

    @staff_member_required
    @wraps(view)
    def checked(request, *args, **kwargs):
        if not can_use_translation_pages(request.user):
            raise PermissionDenied(_("These pages are for translators and editors."))
        return view(request, *args, **kwargs)

    return checked


def _context(request, **values):
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
    next_key: str = ""
    can_edit: bool = False

    @property
    def total(self):
        return sum(self.counts.values())

    @property
    def by_state(self):
        return [(state, self.counts.get(state, 0)) for state in State]

    @property
    def needs_work(self):
        return self.counts.get(State.MISSING, 0) + self.counts.get(State.OUTDATED, 0)


@translators_only
def dashboard(request):
    sections = list(Section.objects.with_text().in_reading_order())
    counts = Status.objects.of_paragraphs().counts_by_section_and_language()
    next_keys = {}
    for section_id, code, key in (
        Status.objects.of_paragraphs()
        .needing_work()
        .in_reading_order()
        .values_list("paragraph__section_id", "language", "paragraph__key")
    ):
        next_keys.setdefault((section_id, code), key)
    mine = translatable_languages(request.user)
    rows = [
        (
            section,
            [
                Cell(code, counts.get((section.pk, code), {}), next_keys.get((section.pk, code), ""), code in mine)
                for code in languages.CODES
            ],
        )
        for section in sections
    ]
    first_needing_work = {}
    for code in mine:
        status = (
            Status.objects.of_paragraphs()
            .in_language(code)
            .needing_work()
            .in_reading_order()
            .select_related("paragraph__section")
            .first()
        )
        if status:
            first_needing_work[code] = status
    context = _context(
        request,
        title=_("Translations"),
        rows=rows,
        columns=[(code, languages.name(code), languages.html_lang(code)) for code in languages.CODES],
        states=list(State),
        mine=mine,
        next_for_me=[(code, languages.name(code), first_needing_work.get(code)) for code in mine],
        stubs=Section.objects.without_text().count(),
        following_older=_following_older_english(),
    )
    return render(request, "translations/dashboard.html", context)


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

    @property
    def is_note(self):
        return isinstance(self.obj, Note)

    follows: str = ""  # for an outdated translation: the date of the release whose English it follows, or UNKNOWN

    @property
    def follows_unknown(self):
        return self.follows == UNKNOWN

    @property
    def english_diff(self):
        """The English changes since the English this translation follows ("" when that English is unknown)."""
        if self.status is not None and self.status.state == State.OUTDATED and self.status.confirmed_source:
            return diff_html(self.status.confirmed_source, self.obj.text_in(SOURCE))
        return ""


def _reference(obj, code, field_name):
    """The text shown beside the editor: in the chosen reference language, else the first that has it."""
    for candidate in [code, *languages.CODES]:
        value = languages.translated(obj, field_name, candidate)
        if value:
            return candidate, render_markdown(value)
    return "", ""


def _items(section, code, reference):
    notes = Prefetch("notes", queryset=Note.objects.order_by("order", "pk"))
    statuses = Prefetch(
        "statuses",
        queryset=Status.objects.filter(language=code).select_related("paragraph__section"),
        to_attr="target_statuses",
    )
    items, in_releases = [], None
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
        for note in paragraph.notes.all():
            item.notes.append(
                Item(
                    obj=note,
                    name=f"n-{note.pk}",
                    text=note.body_in(code),
                    revision=note.revision,
                    reference=_reference(note, reference if note.body_in(reference) else note.language, "body"),
                )
            )
        items.append(item)
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
    items = _items(section, code, reference)
    status_code = 200
    if request.method == "POST":
        outcome = _handle_post(request, items, code)
        if outcome["conflicts"]:
            status_code = 409
        if outcome["refused"]:
            status_code = 400
        if not (
            outcome["refused"] or outcome["conflicts"] or outcome["errors"] or outcome["kept"] or outcome["previewed"]
        ):
            url = f"{request.path}?from={reference}"
            return HttpResponseRedirect(url + (f"#{outcome['anchor']}" if outcome["anchor"] else ""))
    formset = ItemFormSet(items=_all_items(items), user=request.user, code=code)  # what the page now shows
    for item, form in zip(_all_items(items), formset, strict=True):
        item.form = form
    context = _context(
        request,
        title=_("Translate %(number)s into %(language)s")
        % {"number": section.number, "language": languages.name(code)},
        section=section,
        code=code,
        lang=languages.html_lang(code),
        reference=reference,
        references=[(c, languages.name(c)) for c in languages.CODES if c != code],
        items=items,
        formset=formset,
        part_labels=dict(Part.choices),
        is_source=code == SOURCE,
        can_mark_minor=code == SOURCE and can_edit_structure(request.user),
        is_editor=can_edit_structure(request.user),
        states=State,
        preview_url=reverse("translations:preview"),
        public_url=_public_url(section, code),
    )
    return render(request, "translations/translate.html", context, status=status_code)


def _public_url(section, code):
    from django.utils import translation

    with translation.override(code):
        return section.get_absolute_url()


ACTIONS = ("save", "preview", "confirm", "review")


def _handle_post(request, items, code):
    user = request.user
    action, target = next(((name, request.POST[name]) for name in ACTIONS if name in request.POST), ("", ""))
    outcome = {"saved": 0, "conflicts": 0, "errors": 0, "kept": 0, "previewed": False, "anchor": "", "refused": False}
    by_name = {item.name: item for item in _all_items(items)}
    if target and target not in by_name and not (action == "save" and target == "*"):
        raise Http404(_("This section has no such paragraph or note."))
    formset = ItemFormSet(request.POST, items=_all_items(items), user=user, code=code)
    formset.is_valid()  # a crafted minor flag is refused (403) here, before anything is saved
    if formset.non_form_errors():
        for error in formset.non_form_errors():
            messages.error(request, error)
        action, target, outcome["refused"] = "", "", True  # saves nothing; what was typed stays in the fields
    if action in ("confirm", "review"):
        item = by_name[target]
        if item.is_note:
            raise Http404(_("Notes have no status to confirm or review."))
        _set_status(request, item, code, action)
        outcome["anchor"] = item.obj.key
    saved = []
    with writing.batch(user) if action == "save" else nullcontext():
        for form in formset:
            if form.posted:
                _handle_item(form, code, action, target, outcome, saved)
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


def _handle_item(form, code, action, target, outcome, saved):
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
            outcome["anchor"] = item.obj.key if not item.is_note else item.obj.paragraph.key
        saved.append(item)
        return
    if text != writing.text_at(item.obj, code, base):
        item.text, item.revision, item.kept = text, base, True
        outcome["kept"] += 1
    if action == "preview" and target == item.name:
        item.preview = render_markdown(text)
        outcome["previewed"] = True


def _reload(item, code):
    obj = type(item.obj).objects.get(pk=item.obj.pk)
    item.obj = obj
    item.text = writing.text_in(obj, code)
    item.revision = obj.revision
    item.kept = False
    if not item.is_note:
        item.status = Status.objects.get(paragraph=obj, language=code)


def _set_status(request, item, code, action):
    paragraph, user = item.obj, request.user
    status = item.status
    if action == "confirm":
        if status is None or status.state != State.OUTDATED:
            messages.info(request, _("%(key)s is not outdated: nothing to confirm.") % {"key": paragraph.key})
            return
        item.status = confirm(paragraph, code, user)
        messages.success(request, _("%(key)s confirmed against the current English.") % {"key": paragraph.key})
        return
    if status is None or status.state != State.TRANSLATED:
        messages.error(request, _("Only a current translation can be marked reviewed."))
        return
    if status.confirmed_by_id == user.pk and not can_edit_structure(user):
        messages.error(request, _("Someone other than its translator reviews a translation."))
        return
    item.status = mark_reviewed(paragraph, code, user)
    messages.success(request, _("%(key)s marked reviewed.") % {"key": paragraph.key})


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
    context = _context(
        request,
        title=_("History of %(number)s #%(key)s") % {"number": section.number, "key": key},
        section=section,
        paragraph=paragraph,
        entries=entries,
        language=code if code in languages.CODES else "",
        mine=translatable_languages(request.user),
        language_choices=languages_with_names(),
    )
    return render(request, "translations/history.html", context)


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
    if change.term_id:
        return HttpResponseRedirect(reverse("admin:terms_term_change", args=[change.term_id]))
    paragraph = change.paragraph
    return HttpResponseRedirect(reverse("translations:history", args=[paragraph.section.number, paragraph.key]))


# Import


@translators_only
@require_http_methods(["GET", "HEAD", "POST"])
def import_text(request, number):
    section = _section(number)
    mine = translatable_languages(request.user)
    if not mine:
        raise PermissionDenied(_("Only translators and editors can import text."))
    raw = request.POST.get("raw", "")
    cjk = request.POST.get("cjk", "auto")
    if cjk not in ("auto", *languages.CJK):
        cjk = "auto"
    alignment, status_code, applied = None, 200, []
    if request.method == "POST":
        if not raw.strip():
            messages.error(request, _("Paste the section's text first."))
        elif len(raw) > 200_000:
            messages.error(request, _("That is more text than one section holds; paste one section at a time."))
        else:
            alignment = importing.align(section, raw, cjk)
            if "apply" in request.POST:
                applied, conflicts = _apply(request, section, alignment, mine)
                if not conflicts:
                    messages.success(
                        request,
                        ngettext("Imported %(count)d text.", "Imported %(count)d texts.", len(applied))
                        % {"count": len(applied)},
                    )
                    return HttpResponseRedirect(reverse("translations:dashboard"))
                status_code = 409
                alignment = importing.align(section, raw, cjk)
    context = _context(
        request,
        title=_("Import text into %(number)s") % {"number": section.number},
        section=section,
        raw=raw,
        cjk=cjk,
        alignment=alignment,
        mine=mine,
        language_names=dict(languages_with_names()),
    )
    return render(request, "translations/import.html", context, status=status_code)


def languages_with_names():
    return [(code, languages.name(code)) for code in languages.CODES]


def _apply(request, section, alignment, mine):
    wanted = set(request.POST.getlist("take"))
    for choice in wanted:  # every right is checked before anything is saved
        require_translate(request.user, choice.rpartition(":")[2])
    applied, conflicts = [], []
    for row in alignment.rows:
        for proposal in row.proposals:
            if f"{row.paragraph.key}:{proposal.code}" not in wanted or proposal.kind == "same":
                continue
            base = parse_revision(request.POST.get(f"revision-{row.paragraph.key}"))
            try:
                if writing.write_text(
                    row.paragraph, proposal.code, proposal.imported, by=request.user, base_revision=base
                ):
                    applied.append((row.paragraph.key, proposal.code))
            except Conflict as conflict:
                conflicts.append(conflict)
                messages.error(
                    request,
                    _("%(key)s [%(language)s] was changed by %(who)s since you made the proposal; it was not imported.")
                    % {"key": row.paragraph.key, "language": proposal.code, "who": conflict.by},
                )
            except ValidationError as error:
                conflicts.append(error)
                messages.error(request, f"{row.paragraph.key} [{proposal.code}]: {' '.join(error.messages)}")
    unknown = wanted - {f"{row.paragraph.key}:{p.code}" for row in alignment.rows for p in row.proposals}
    if unknown:
        messages.warning(request, _("Some selected rows are no longer in the proposal and were skipped."))
    return applied, conflicts
