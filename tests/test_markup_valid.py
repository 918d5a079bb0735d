"""Every public page type (tests/pages.py) is valid HTML: the Nu HTML checker (npm's vnu-jar, which `make install` fetches, run with
the JRE `make install` installs from Debian when `java` is missing) finds no error in any of them."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from pages import PAGE_TYPES
from people import admin_pages, client_for, editor, paragraph

VNU = Path(__file__).resolve().parent.parent / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"

# A near miss: valid but for one error each, which the checker must find (else it checks nothing).
BROKEN = (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>x</title></head>'
    '<body><main><p id="a">one</p><p id="a">two <a href="#a">three <a href="#b">four</a></a></p></main></body></html>'
)


def nu_errors(files):
    """The checker's errors, by file name: [(line, message)]."""
    if not VNU.exists():
        pytest.fail(f"{VNU} is missing: `make install` fetches vnu-jar with npm")
    java = shutil.which("java")
    if java is None:
        pytest.fail("java is missing: `make install` installs Debian's default-jre-headless")
    result = subprocess.run(
        [java, "-jar", str(VNU), "--errors-only", "--format", "json", "--exit-zero-always", *map(str, files)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    found = {}
    for message in json.loads(result.stderr or result.stdout)["messages"]:
        name = Path(message.get("url", "")).name
        found.setdefault(name, []).append((message.get("lastLine"), message.get("message")))
    return found


def test_every_public_page_type_is_valid_html(client, ipg, tmp_path):
    files = {}
    for page in PAGE_TYPES:
        client.cookies.clear()  # no remembered compare choice: each URL is the page it names
        response = client.get(page.url)
        assert response.status_code == page.status, page.url
        path = tmp_path / f"{page.name}.html"
        path.write_bytes(response.content)
        files[path.name] = page.url
    broken = tmp_path / "broken.html"
    broken.write_text(BROKEN)
    errors = nu_errors([*(tmp_path / name for name in files), broken])
    # The near miss is caught: a duplicate id and a link inside a link.
    assert len(errors.pop("broken.html", [])) >= 2
    assert {files[name]: found for name, found in errors.items()} == {}


def test_the_history_and_comparison_pages_are_valid_html(client, ipg, tmp_path):
    from io import StringIO

    from django.core.management import call_command

    from edits import write

    write("2.3", "definition-1", "en", "A player makes a TEST error in the game.")
    call_command("publishrelease", "2025-02-10", stdout=StringIO())
    pages = {
        "/ja/ipg/2.3/definition-1/history/?langs=ja,en": 200,
        "/en/ipg/2.4/philosophy-1/history/": 200,
        "/zh-hans/changes/?from=2024-09-23&to=2025-02-10&langs=zh-hans,en": 200,
        "/en/changes/?from=2024-09-23&to=soon": 400,
    }
    files = {}
    for number, (url, status) in enumerate(pages.items()):
        response = client.get(url)
        assert response.status_code == status, url
        path = tmp_path / f"page-{number}.html"
        path.write_bytes(response.content)
        files[path.name] = url
    errors = nu_errors([tmp_path / name for name in files])
    assert {files[name]: found for name, found in errors.items()} == {}


def test_every_admin_and_workspace_page_is_valid_html(ipg, tmp_path):
    """What translators and editors work in: the admin's pages (Django's templates and ours) and the workspace's."""
    client, files = client_for(editor()), {}
    for number, url in enumerate(admin_pages()):
        response = client.get(url)
        assert response.status_code == 200, url
        path = tmp_path / f"admin-{number}.html"
        path.write_bytes(response.content)
        files[path.name] = url
    errors = nu_errors([tmp_path / name for name in files])
    assert {files[name]: found for name, found in errors.items()} == {}


def test_the_translators_desk_is_valid_html(ipg, tmp_path):
    """The workspace as a Chinese translator meets it: the admin's index with its link to the dashboard, the
    dashboard's cells, an outdated paragraph's diff and one whose English is unknown (with its marks), the history's
    diffs, and a save refused for a conflict (409, both versions)."""
    from edits import write
    from ipgsite.editing.models import Translator
    from people import translate_form, translate_url, translator

    write("2.3", "example-b", "en", paragraph("2.3", "example-b").text_en.replace("two cards", "three cards"))
    user = translator("zh-hans")
    Translator.objects.create(user=user, interface_language="zh-hans")
    client = client_for(user)
    stale = translate_form(client, "2.3", "zh-hans")
    write("2.3", "example-c", "zh-hans", "（测试）别人先保存。")
    stale.update({"p-example-c-text": "（测试）我的版本。", "save": "p-example-c"})
    conflict = client.post(translate_url("2.3", "zh-hans"), stale)
    assert conflict.status_code == 409
    pages = {
        "/admin/": client.get("/admin/"),
        "/admin/translate/": client.get("/admin/translate/"),
        "/admin/translate/2.3/zh-hans/": client.get("/admin/translate/2.3/zh-hans/"),
        "/admin/translate/2.3/history/example-b/": client.get("/admin/translate/2.3/history/example-b/"),
        "a conflict": conflict,
    }
    files = {}
    for number, (url, response) in enumerate(pages.items()):
        assert response.status_code in (200, 409), url
        path = tmp_path / f"desk-{number}.html"
        path.write_bytes(response.content)
        files[path.name] = url
    errors = nu_errors([tmp_path / name for name in files])
    assert {files[name]: found for name, found in errors.items()} == {}
