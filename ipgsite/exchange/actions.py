"""The dashboard's upload of a file a translation tool saved, as a workspace action (`ipgsite.workspace.actions`):
`check()` refuses what cannot be read at all, `execute()` imports the file as the user, all or nothing."""

from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext as _

from ipgsite.editing import writing
from ipgsite.workspace.actions import Action, Refused

from . import tmx, xliff
from .inbound import FileError, Limits, import_file, too_large

UPLOADS = [xliff.FORMAT, tmx.FORMAT]  # the formats an upload may be in, told apart by the file's root element


class UploadRefused(Refused):
    """Nothing of the file was imported: every problem found, the HTTP status that says why, and the file's format
    when it is one the site reads."""

    def __init__(self, problems, status=400, format=None):
        super().__init__("; ".join(str(problem) for problem in problems))
        self.problems, self.status, self.format = list(problems), status, format


class UploadExchangeFile(Action):
    """Import an XLIFF or TMX file as the user, within the web's limits. Refused: no file or too big a file (400), a
    file that cannot be read (400, each problem named), a language the user does not translate (403), someone's save
    meanwhile (409), another import holding the write lock too long (503). `execute()` returns (format, report); a
    report with refused units has changed nothing."""

    def __init__(self, user, upload, limits=None):
        self.user, self.upload, self.limits = user, upload, limits or Limits.web()

    def check(self):
        if self.upload is None:
            raise UploadRefused([_("Choose an XLIFF or TMX file to upload.")])
        if self.upload.size > self.limits.bytes:
            raise UploadRefused([too_large(self.limits, UPLOADS)])

    def perform(self):
        try:
            return import_file(self.upload.read(), self.user, UPLOADS, self.limits)
        except FileError as exc:
            raise UploadRefused(exc.problems, format=exc.format) from exc
        except PermissionDenied as exc:
            raise UploadRefused([str(exc)], 403) from exc
        except ValidationError as exc:
            raise UploadRefused(exc.messages) from exc
        except writing.Conflict as exc:
            raise UploadRefused([_("Someone saved a text of this file meanwhile; upload it again.")], 409) from exc
        except writing.Busy as exc:
            message = _("Another import was being written meanwhile; upload the file again in a minute.")
            raise UploadRefused([message], 503) from exc
