"""The site set up as a deployment, for the tests that run it as production does: manage.py in a subprocess."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def manage(env, *command):
    """Run `manage.py command` with exactly `env` (a deployment's environment); raises if it fails."""
    subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True, capture_output=True)


def set_up(env, password, load_content=False):
    """Migrate, load content/ if asked, collect static files, and create the superuser `editor`.

    The load draws no link preview pictures (PREVIEW_FONT naming no font, a setting the drawing step honours): no test
    of a deployment looks at them, and the site draws a picture that is asked for and missing."""
    manage(env, "migrate", "--noinput")
    if load_content:
        manage({**env, "PREVIEW_FONT": str(ROOT / "no-font-while-loading")}, "loadcontent")
    manage(env, "collectstatic", "--noinput")
    superuser = ["createsuperuser", "--noinput", "--username", "editor", "--email", "editor@example.org"]
    manage({**env, "DJANGO_SUPERUSER_PASSWORD": password}, *superuser)
