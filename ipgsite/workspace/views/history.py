"""A paragraph's history on the translators' pages: each change to its text and notes once, as a diff, with a
revert where one may be made."""

from dataclasses import dataclass

from django.contrib import messages
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ipgsite.editing.models import Change
from ipgsite.editing.permissions import translatable_languages
from ipgsite.ipg import languages
from ipgsite.ipg.models import Paragraph
from ipgsite.releases.diffing import diff_html

from ..access import languages_with_names, page_context, section_numbered, translators_only
from ..actions import Busy, NotAllowed, Refused, Revert


@dataclass
class HistoryEntry:
    change: object
    diff: str  # the change as one text: removed words in <del>, added ones in <ins>
    can_revert: bool


@translators_only
def paragraph_history(request, number, key):
    section = section_numbered(number)
    paragraph = get_object_or_404(Paragraph, section=section, key=key)
    changes = Change.objects.of_paragraph(paragraph).select_related("user", "note", "reverts")
    code = request.GET.get("language")
    if code in languages.CODES:
        changes = changes.filter(language=code)
    entries = [
        HistoryEntry(
            change=change,
            diff=diff_html(change.before, change.after),
            can_revert=Revert(request.user, change).allowed(),
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
    revert = Revert(request.user, change)
    try:
        revert.execute()
    except (NotAllowed, Busy):
        raise  # another language's change: 403; the write lock held too long: 503
    except Refused as refusal:
        messages.add_message(request, refusal.level, refusal.message)
    else:
        messages.success(request, revert.done())
    if change.content_type_id:  # a term's or a finder question's change: back to its admin page
        ct = change.content_type
        return HttpResponseRedirect(reverse(f"admin:{ct.app_label}_{ct.model}_change", args=[change.object_id]))
    paragraph = change.paragraph
    return HttpResponseRedirect(reverse("workspace:history", args=[paragraph.section.number, paragraph.key]))
