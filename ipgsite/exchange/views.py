"""The translators' dashboard's downloads (XLIFF, TMX, glossary), per language (the user's only), and the upload of
an XLIFF or TMX file, told apart by its root element."""

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from ipgsite.editing.permissions import require_translate
from ipgsite.workspace.access import page_context, translators_only

from . import tmx, xliff
from .actions import UploadExchangeFile, UploadRefused
from .glossary import export_glossary
from .pairs import PairError, filename, pair

FORMATS = {
    "xliff": (lambda source, target: xliff.export_xliff(source, target), "xlf", "application/x-xliff+xml"),
    "xliff-filled": (  # for OmegaT 3.x, which translates the targets: the untranslated ones hold their source
        lambda source, target: xliff.export_xliff(source, target, fill_targets=True),
        "filled.xlf",
        "application/x-xliff+xml",
    ),
    "tmx": (tmx.export_tmx, "tmx", "application/x-tmx+xml"),
    "glossary": (lambda source, target: export_glossary(source, target).encode("utf-8"), "txt", "text/plain"),
}


@require_GET
@translators_only
def download(request, source, target, kind):
    if kind not in FORMATS:
        raise Http404(_("Unknown format"))
    try:
        source, target = pair(source, target)
    except PairError as exc:
        raise Http404(str(exc)) from None
    require_translate(request.user, target)
    make, extension, content_type = FORMATS[kind]
    response = HttpResponse(make(source, target), content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename(source, target, extension)}"'
    return response


def _title(format):
    titles = {xliff.FORMAT: _("XLIFF import"), tmx.FORMAT: _("TMX import")}
    return titles.get(format, _("Import of a translated file"))


@require_POST
@translators_only
def upload(request):
    """Import an XLIFF or TMX file as the signed-in user: the report of what changed and what was refused."""
    upload = request.FILES.get("file")
    problems, format, report, status = [], None, None, 200
    try:
        format, report = UploadExchangeFile(request.user, upload).execute()
    except UploadRefused as refusal:
        problems, format, status = refusal.problems, refusal.format, refusal.status
    if report is not None and report.refused:
        status = 409
    context = page_context(
        request, title=_title(format), name=getattr(upload, "name", ""), problems=problems, report=report
    )
    return render(request, "exchange/report.html", context, status=status)
