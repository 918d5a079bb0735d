"""Static files as a deployment serves them: the site's own stylesheets and scripts minified, then hashed names and
compressed copies (whitenoise's CompressedManifestStaticFilesStorage), which whitenoise serves for a year."""

import re
import sys
from pathlib import Path

import rcssmin
import rjsmin
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.files.base import ContentFile
from whitenoise.storage import CompressedManifestStaticFilesStorage

MINIFIERS = {".css": rcssmin.cssmin, ".js": rjsmin.jsmin}
HASH = re.compile(r"\.[0-9a-f]{12}(?=\.\w+$)")


def is_own(name):
    """Whether a static file is the site's own source (not Django's admin, a library's, or a vendored copy)."""
    if "/vendor/" in name or ".min." in name:
        return False
    found = finders.find(HASH.sub("", name))
    if not found:
        return False
    path = Path(found).resolve()
    return path.is_relative_to(Path(settings.BASE_DIR).resolve()) and not path.is_relative_to(
        Path(sys.prefix).resolve()
    )


class MinifiedManifestStaticFilesStorage(CompressedManifestStaticFilesStorage):
    def _save(self, name, content):
        minify = MINIFIERS.get(Path(name).suffix)
        if minify and is_own(name):
            content.seek(0)
            content = ContentFile(minify(content.read().decode("utf-8")).encode("utf-8"))
        return super()._save(name, content)
