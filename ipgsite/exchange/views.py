"""The translators' dashboard's downloads (XLIFF, TMX, glossary) and XLIFF upload, per language: the user's only."""

from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from ipgsite.editing.permissions import require_translate
from ipgsite.editing.writing import Conflict
from ipgsite.workspace.views import _context, translators_only

from .glossary import export_glossary
from .inbound import MAX_BYTES, FileError, too_large
from .pairs import PairError, filename, pair
from .tmx import export_tmx
from .xliff import export_xliff, import_xliff

FORMATS = {
    "xliff": (lambda source, target: export_xliff(source, target), "xlf", "application/x-xliff+xml"),
    "tmx": (export_tmx, "tmx", "application/x-tmx+xml"),
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


@require_POST
@translators_only
def upload(request):
    """Import an XLIFF file as the signed-in user: the report of what changed and what was refused."""
    upload = request.FILES.get("file")
    problems, report, status = [], None, 200
    if upload is None:
        problems, status = [_("Choose an XLIFF file to upload.")], 400
    elif upload.size > MAX_BYTES:
        problems, status = [too_large()], 400
    else:
        try:
            report = import_xliff(upload.read(), request.user)
        except FileError as exc:
            problems, status = exc.problems, 400
        except PermissionDenied as exc:
            problems, status = [str(exc)], 403
        except ValidationError as exc:
            problems, status = exc.messages, 400
        except Conflict:
            problems, status = [_("Someone saved a text of this file meanwhile; upload it again.")], 409
        if report is not None and report.refused:
            status = 409
    context = _context(
        request, title=_("XLIFF import"), name=getattr(upload, "name", ""), problems=problems, report=report
    )
    return render(request, "exchange/report.html", context, status=status)
