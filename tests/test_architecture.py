"""The layers docs/architecture.md describes, checked on the code as it is.

The import-linter contract in pyproject.toml fixes the order of the layers: `make lint` (so CI) checks it, once, with
`lint-imports`. These tests check what it does not see: apps that import each other, modules of an app that import
each other in a circle (inside functions too), private names taken from another module or reached through it, the
size of an app and of a view module, and that a load of content/ sets off each after-write step once.
"""

import ast
import graphlib
import re
import tomllib
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
MAX_VIEW_MODULE_LINES = 300


def modules():
    """(path, dotted module name) of every module of the site, migrations left out."""
    for path in sorted(PACKAGE.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        parts = path.relative_to(ROOT).with_suffix("").parts
        yield path, ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_from(node, path, name):
    """The module an `ImportFrom` node of module `name` imports from, a relative import resolved."""
    if not node.level:
        return node.module
    base = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for _level in range(node.level - 1):
        base = base.rpartition(".")[0]
    return f"{base}.{node.module}" if node.module else base


def imports(path, name):
    """(imported module, imported names) of each import in a module, at its top or inside a function."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, ()
        elif isinstance(node, ast.ImportFrom):
            yield imported_from(node, path, name), tuple(alias.name for alias in node.names)


def bound_modules(tree, path, name, site):
    """{a name a module binds: the module of the site (`site`: their names) it stands for}: `from . import lookup`,
    `import ipgsite.terms.lookup as lookup`."""
    bound = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = imported_from(node, path, name)
            bound |= {a.asname or a.name: f"{module}.{a.name}" for a in node.names if f"{module}.{a.name}" in site}
        elif isinstance(node, ast.Import):
            bound |= {a.asname: a.name for a in node.names if a.asname and a.name in site}
    return bound


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


def imported_modules(path, name, site):
    """The modules of the site (`site`: their names) a module imports, at its top or inside a function:
    `from . import lookup` imports the module lookup, `from .models import Term` the module models."""
    for module, names in imports(path, name):
        submodules = {f"{module}.{n}" for n in names if f"{module}.{n}" in site}
        yield from submodules or ({module} if module in site else ())


def is_private(name):
    return name.startswith("_") and not name.startswith("__")


def test_no_module_imports_a_private_name_of_another_module():
    taken = []
    for path, name in modules():
        for module, names in imports(path, name):
            if module and module.startswith("ipgsite") and module != name:
                taken += [f"{name}: {module}.{n}" for n in names if is_private(n)]
    assert taken == []


def test_no_module_reaches_a_private_name_through_another_module():
    """`lookup._read_terms()`, where `lookup` is a module of the site, is as private as importing `_read_terms`."""
    site = {name for _path, name in modules()}
    reached = []
    for path, name in modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        bound = bound_modules(tree, path, name, site)
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and is_private(node.attr):
                if bound.get(node.value.id, name) != name:
                    reached.append(f"{name}: {bound[node.value.id]}.{node.attr}")
    assert reached == []


def test_no_modules_of_an_app_import_each_other_in_a_circle():
    """Imports inside functions count: a circle hidden in a function is still a circle."""
    site = {name for _path, name in modules()}
    graph = {}
    for path, name in modules():
        graph[name] = {m for m in imported_modules(path, name, site) if m != name and app_of(m) == app_of(name)}
    try:
        tuple(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as error:
        pytest.fail(f"modules that import each other: {' -> '.join(error.args[1])}")


def contract_layers():
    """The layers of the import-linter contract on the apps, top first: [{app, …}, …]."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"][
        "contracts"
    ]
    (layers,) = [c["layers"] for c in contracts if c.get("containers") == ["ipgsite"]]
    return [{app.strip() for app in layer.split("|")} for layer in layers]


def documented_layers():
    """The layers docs/architecture.md's table names, top first: [(number, {app, …}, what it may import), …]."""
    rows = re.findall(r"^\| (\d+) [^|]+\|([^|]+)\|([^|]+)\|", (ROOT / "docs" / "architecture.md").read_text(), re.M)
    return [(int(number), set(re.findall(r"`(\w+)`", apps)), may.strip()) for number, apps, may in rows]


def test_the_documented_layers_are_the_contracts():
    documented = documented_layers()
    assert [apps for _number, apps, _may in documented] == contract_layers()
    assert [number for number, _apps, _may in documented] == list(range(len(documented), 0, -1))
    below = {1: "—", 2: "1"} | {n: f"1–{n - 1}" for n in range(3, len(documented) + 1)}
    assert [may for _number, _apps, may in documented] == [below[number] for number, _apps, _may in documented]
    apps = {path.parent.name for path in PACKAGE.glob("*/apps.py")} | {"documents"}
    assert set().union(*contract_layers()) == apps  # every app has its place


def test_no_app_holds_more_than_its_share_of_python():
    lines = {}
    for path, name in modules():
        if app := app_of(name):
            lines[app] = lines.get(app, 0) + len(path.read_text(encoding="utf-8").splitlines())
    assert {app: n for app, n in lines.items() if n > MAX_APP_LINES} == {}
    assert len(lines) >= 15  # every app was counted


def test_views_stay_thin():
    """What a page does lives in the app's own modules (actions, queries); a view module only answers requests."""
    views = [path for path, name in modules() if "views" in name.rpartition(".")[2] or ".views." in name]
    sizes = {str(path.relative_to(ROOT)): len(path.read_text(encoding="utf-8").splitlines()) for path in views}
    assert {path: n for path, n in sizes.items() if n > MAX_VIEW_MODULE_LINES} == {}
    assert len(sizes) >= 15  # every view module was counted


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


def test_what_a_write_sets_off_is_only_the_after_write_steps():
    """No module connects to a model's save or delete but the write path's guard (pre_save, pre_delete): whatever a
    write sets off is a step settings.AFTER_WRITE lists."""
    receivers = re.compile(r"\b(post_save|post_delete|m2m_changed|post_init|pre_init)\b")
    connected = [name for path, name in modules() if receivers.search(path.read_text(encoding="utf-8"))]
    assert connected == []


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


@override_settings(READING_LAYERS={kind: v for kind, v in settings.READING_LAYERS.items() if kind != "version"})
def test_without_a_version_layer_the_site_keeps_no_earlier_versions(ipg, client):
    assert client.get("/en/ipg/2.3/?release=2024-09-23").status_code == 404
    assert client.get("/en/ipg/2.3/").status_code == 200


def test_the_version_layer_finds_a_section_as_a_release_froze_it(ipg, client):
    response = client.get("/en/ipg/2.3/?release=2024-09-23")
    assert response.status_code == 200 and "2024-09-23" in response.content.decode()
