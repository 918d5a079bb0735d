"""The layers docs/architecture.md describes, checked on the code as it is.

The import-linter contract in pyproject.toml fixes the order of the layers: `make lint` (so CI) checks it, once, with
`lint-imports`. These tests check what it does not see: apps that import each other, private names taken from another
module, raw SQL, the size of an app, and that a load of content/ sets off each after-write step once.
"""

import ast
import re
from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

import steps

ROOT = Path(settings.BASE_DIR)
PACKAGE = ROOT / "ipgsite"
MAX_APP_LINES = 2_500


def modules():
    """(path, dotted module name) of every module of the site, migrations left out."""
    for path in sorted(PACKAGE.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        parts = path.relative_to(ROOT).with_suffix("").parts
        yield path, ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path, name):
    """(imported module, imported names) of each import in a module, relative imports resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, ()
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _level in range(node.level - 1):
                base = base.rpartition(".")[0]
            module = (f"{base}.{node.module}" if node.module else base) if node.level else node.module
            yield module, tuple(alias.name for alias in node.names)


def app_of(module):
    parts = module.split(".")
    return parts[1] if len(parts) > 2 and parts[0] == "ipgsite" else None


def test_no_app_imports_an_app_that_imports_it_back():
    uses = {}
    for path, name in modules():
        for module, _names in imports(path, name):
            source, target = app_of(name), app_of(module or "")
            if source and target and source != target:
                uses.setdefault(source, set()).add(target)
    both_ways = sorted((a, b) for a, targets in uses.items() for b in targets if a < b and a in uses.get(b, ()))
    assert both_ways == []


def test_no_module_imports_a_private_name_of_another_module():
    taken = []
    for path, name in modules():
        for module, names in imports(path, name):
            if module and module.startswith("ipgsite") and module != name:
                taken += [f"{name}: {module}.{n}" for n in names if n.startswith("_") and not n.startswith("__")]
    assert taken == []


def test_no_app_holds_more_than_its_share_of_python():
    lines = {}
    for path, name in modules():
        if app := app_of(name):
            lines[app] = lines.get(app, 0) + len(path.read_text(encoding="utf-8").splitlines())
    assert {app: n for app, n in lines.items() if n > MAX_APP_LINES} == {}
    assert len(lines) >= 15  # every app was counted


def test_a_load_of_content_sets_off_each_after_write_step_once(ipg):
    recorded = [f"steps.{name}" for name in steps.wrap(settings.AFTER_WRITE)]
    steps.calls.clear()
    with override_settings(AFTER_WRITE=recorded):
        call_command("loadcontent", stdout=StringIO())
    assert steps.calls == list(settings.AFTER_WRITE)


def test_an_edit_in_the_admin_sets_off_each_after_write_step_once(ipg, admin_client):
    from ipgsite.ipg.models import Paragraph

    paragraph = Paragraph.objects.get(section__number="2.3", key="example-b")
    recorded = [f"steps.{name}" for name in steps.wrap(settings.AFTER_WRITE)]
    steps.calls.clear()
    with override_settings(AFTER_WRITE=recorded):
        response = admin_client.post(
            f"/admin/ipg/paragraph/{paragraph.pk}/change/",
            {
                "section": paragraph.section_id,
                "key": paragraph.key,
                "part": paragraph.part,
                "order": paragraph.order,
                "text_en": paragraph.text_en + " (edited)",
                "text_zh_hans": paragraph.text_zh_hans or "",
                "text_ja": paragraph.text_ja or "",
                "base_revision": paragraph.revision,
                "notes-TOTAL_FORMS": 0,
                "notes-INITIAL_FORMS": 0,
            },
        )
    assert response.status_code == 302
    assert steps.calls == list(settings.AFTER_WRITE)


@pytest.mark.parametrize("path", ["ipgsite.editing.writing", "ipgsite.editing.models", "ipgsite.editing.statuses"])
def test_the_write_path_names_no_feature_model(path):
    source = (ROOT / (path.replace(".", "/") + ".py")).read_text(encoding="utf-8")
    for app in ("terms", "finder", "releases", "search", "crosslinks", "study"):
        assert f"ipgsite.{app}" not in source


CORE_TAG_LIBRARIES = {"i18n", "static", "ipg", "l10n", "tz", "cache"}


def test_the_core_templates_load_no_feature_apps_tags():
    """What feature apps add to the reading pages comes through settings.READING_LAYERS, not their template tags."""
    loaded = {}
    for path in sorted((ROOT / "templates" / "ipg").glob("*.html")) + [ROOT / "templates" / "base.html"]:
        for match in re.finditer(r"{%\s*load\s+([^%]+?)\s*%}", path.read_text(encoding="utf-8")):
            libraries = set(match.group(1).split()) - CORE_TAG_LIBRARIES
            if libraries:
                loaded[path.name] = sorted(libraries)
    assert loaded == {}


@override_settings(
    READING_LAYERS={**settings.READING_LAYERS, "text": {**settings.READING_LAYERS["text"], "shout": "steps.shout"}}
)
def test_a_text_layer_named_in_the_settings_reaches_every_text_of_a_section_page(ipg, client):
    html = client.get("/en/ipg/2.3/").content.decode()
    assert html.count('<b class="layer-mark">') >= 30  # one per paragraph and note shown
    assert 'href="/en/ipg/2.2/"' in html  # the links layer still ran before it
