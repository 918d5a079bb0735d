"""One translator's save, in a process of its own, on the SQLite database file named by DATABASE_URL: it waits for
the file `go` in the folder given, then posts, and prints the answer's status code. Run by tests/test_lost_updates.py
(`python tests/concurrent_saver.py FOLDER WHO`), as two gunicorn workers would serve two translators."""

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ipgsite.test_settings")

import django  # noqa: E402

django.setup()

from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from ipgsite.terms.models import Term  # noqa: E402
from people import admin_form_data, translate_form, translate_url  # noqa: E402

setup_test_environment()  # the test client's responses keep their context
folder, who = Path(sys.argv[1]), sys.argv[2]
from django.contrib.auth.models import User  # noqa: E402

client = Client(raise_request_exception=False)
client.force_login(User.objects.get(username=who), backend="django.contrib.auth.backends.ModelBackend")
if who == "terms":
    url = f"/admin/terms/term/{Term.objects.get(key='hand').pk}/change/"
    data = admin_form_data(client.get(url))
    data["name_ja"] = "（試験）手"
else:
    url = translate_url("2.3", "ja")
    data = translate_form(client, "2.3", "ja")
    data.update({"p-example-a-text": "（試験）手札とライブラリーを確認する。", "save": "p-example-a"})
(folder / f"ready-{who}").touch()
deadline = time.monotonic() + 60
while not (folder / "go").exists() and time.monotonic() < deadline:
    time.sleep(0.01)
print(client.post(url, data).status_code)
