"""Keeping each paragraph's status per language current, and showing what changed in the English."""

import difflib
import re

from django.db import transaction
from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import mark_safe

from ipgsite.ipg import languages
from ipgsite.ipg.models import Paragraph

from .models import State, Status

SOURCE = languages.SOURCE


def follow(batch):
    """Statuses follow a batch of writes (ipgsite.derived): the edited paragraphs', and new paragraphs' first ones."""
    edits = {}
    for edit in batch.edits:
        if isinstance(edit.obj, Paragraph):
            edits.setdefault(edit.obj.pk, []).append(edit)
    user = batch.by if getattr(batch.by, "is_authenticated", False) else None
    for paragraph in Paragraph.objects.filter(pk__in=edits).prefetch_related("statuses"):
        english = [edit for edit in edits[paragraph.pk] if edit.language == SOURCE]
        refresh_statuses(
            paragraph,
            changed={edit.language for edit in edits[paragraph.pk]},
            english_before=english[0].before if english else None,
            minor=bool(english) and all(edit.minor for edit in english),
            user=user,
        )
    if batch.structure_changed or batch.everything:
        ensure_statuses()


def state_for(status, text, english):
    if not text:
        return State.MISSING
    if status.language != SOURCE and status.confirmed_source != english:
        return State.OUTDATED
    return State.REVIEWED if status.reviewed_at else State.TRANSLATED


def refresh_statuses(paragraph, changed=(), english_before=None, minor=False, user=None):
    """Bring the paragraph's statuses up to date after a save that changed the languages in `changed`."""
    english = paragraph.text_in(SOURCE)
    existing = {status.language: status for status in paragraph.statuses.all()}
    now = timezone.now()
    for code in languages.CODES:
        status = existing.get(code) or Status(paragraph=paragraph, language=code, confirmed_source=english)
        text = paragraph.text_in(code)
        if code in changed:
            status.reviewed_by, status.reviewed_at = None, None
            if text:
                status.confirmed_source, status.confirmed_by, status.confirmed_at = english, user, now
        elif minor and SOURCE in changed and status.confirmed_source == (english_before or ""):
            # A minor English edit keeps current translations current; outdated ones stay outdated.
            status.confirmed_source = english
        status.state = state_for(status, text, english)
        status.save()


def ensure_statuses(paragraphs=None):
    """Statuses for paragraphs that have none yet (e.g. loaded before this app), taken as confirmed."""
    paragraphs = Paragraph.objects.all() if paragraphs is None else paragraphs
    have = set(Status.objects.filter(paragraph__in=paragraphs).values_list("paragraph_id", "language"))
    new = []
    for paragraph in paragraphs:
        english = paragraph.text_in(SOURCE)
        for code in languages.CODES:
            if (paragraph.pk, code) not in have:
                status = Status(paragraph=paragraph, language=code, confirmed_source=english)
                status.state = state_for(status, paragraph.text_in(code), english)
                new.append(status)
    if new:
        Status.objects.bulk_create(new, ignore_conflicts=True)


@transaction.atomic
def confirm(paragraph, code, user):
    """The translator checked the translation against the changed English: it is current again."""
    status = Status.objects.select_for_update().get(paragraph=paragraph, language=code)
    status.confirmed_source = paragraph.text_in(SOURCE)
    status.confirmed_by, status.confirmed_at = user, timezone.now()
    status.state = state_for(status, paragraph.text_in(code), status.confirmed_source)
    status.save()
    return status


@transaction.atomic
def mark_reviewed(paragraph, code, user):
    status = Status.objects.select_for_update().get(paragraph=paragraph, language=code)
    status.reviewed_by, status.reviewed_at = user, timezone.now()
    status.state = state_for(status, paragraph.text_in(code), paragraph.text_in(SOURCE))
    status.save()
    return status


_TOKENS = re.compile(r"\s+|\w+|[^\w\s]", re.UNICODE)


def diff_html(before, after):
    """A word-level diff as HTML: removed words in <del>, added words in <ins>, everything escaped."""
    old, new = _TOKENS.findall(before or ""), _TOKENS.findall(after or "")
    out = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if op == "equal":
            out.append(escape("".join(old[i1:i2])))
            continue
        if i2 > i1:
            out.append(f"<del>{escape(''.join(old[i1:i2]))}</del>")
        if j2 > j1:
            out.append(f"<ins>{escape(''.join(new[j1:j2]))}</ins>")
    return mark_safe("".join(out))
