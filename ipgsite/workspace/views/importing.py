"""The import page: a document (a paste or a file), every section of it proposed, paragraphs and notes, to review;
the ticked rows applied together (`actions.ImportDocument`)."""

from django.contrib import messages
from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from ipgsite import documents
from ipgsite.editing.permissions import can_edit_structure, translatable_languages
from ipgsite.ipg import languages

from ..access import languages_with_names, page_context, section_numbered, translators_only
from ..actions import Busy, ImportDocument, NotAllowed, Refused, read_document


@translators_only
@require_http_methods(["GET", "HEAD", "POST"])
def import_text(request, number):
    """The importer's proposal for every section of a document (a paste or a file), paragraphs and notes, to
    review; a document without a heading is this section's. The ticked rows are applied together."""
    section = section_numbered(number)
    ImportDocument(request.user, section, None).check()  # 403 for staff who translate no language
    raw = request.POST.get("raw", "")
    cjk = request.POST.get("cjk", "auto")
    if cjk not in ("auto", *languages.CJK):
        cjk = "auto"
    source = request.POST.get("source", "").strip()[:200]
    found, packed, status = [], "", 200
    if request.method == "POST":
        try:
            document = read_document(request.FILES.get("file"), raw, request.POST.get("document", ""))
        except Refused as refusal:
            messages.error(request, refusal.message)
        else:
            packed = document.packed
            action = ImportDocument(
                request.user,
                section,
                document,
                cjk=cjk,
                source=source,
                taken=request.POST.getlist("take"),
                posted=request.POST,
            )
            found, problems = action.propose()
            for problem in problems:
                messages.error(request, problem)
            if "apply" in request.POST and found and not problems:
                try:
                    imported = action.execute()
                except (NotAllowed, Busy):
                    raise  # a language that is not theirs, a new paragraph without an editor: 403; busy: 503
                except Refused as refusal:
                    messages.error(request, refusal.message)
                    status = refusal.status
                    found, _problems = action.propose()
                else:
                    if imported.skipped:
                        messages.warning(
                            request, _("Some selected rows are no longer in the proposal and were skipped.")
                        )
                    count = len(imported.written)
                    text = ngettext("Imported %(count)d text.", "Imported %(count)d texts.", count)
                    messages.success(request, text % {"count": count})
                    return HttpResponseRedirect(reverse("workspace:dashboard"))
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
        mine=translatable_languages(request.user),
        editor=can_edit_structure(request.user),
        language_names=dict(languages_with_names()),
    )
    return render(request, "workspace/import.html", context, status=status)
