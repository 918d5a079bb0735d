"""No raw SQL outside the search app: every other app asks the database through the ORM, and asks the search index
through the search app's functions (ipgsite/search/similar.py, finding.py), whose backends alone know its tables.
Migrations may run SQL of their own.

Each module is parsed, so that a word in a comment or a docstring counts for nothing: what counts is a call of
`.cursor()`, `.execute(sql)`/`.executemany(sql, …)`, a manager's `.raw()` or a queryset's `.extra()`, and any use of `RawSQL` or
`RunSQL`.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "ipgsite"
ALLOWED = PACKAGE / "search"
RAW_CALLS = {"cursor", "execute", "executemany", "raw", "extra"}
RAW_NAMES = {"RawSQL", "RunSQL"}
SQL_ARGUMENT = {"execute", "executemany"}  # a cursor's take the SQL


def raw_sql(source, filename="<source>"):
    """(line, what) for each use of raw SQL in Python source."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in RAW_CALLS:
            if node.func.attr in SQL_ARGUMENT and not (node.args or node.keywords):
                continue  # not SQL: an action's execute() (ipgsite/workspace/actions), which takes none
            found.append((node.lineno, f".{node.func.attr}()"))
        elif isinstance(node, ast.Name) and node.id in RAW_NAMES:
            found.append((node.lineno, node.id))
        elif isinstance(node, ast.Attribute) and node.attr in RAW_NAMES:
            found.append((node.lineno, node.attr))
        elif isinstance(node, ast.ImportFrom):
            found += [(node.lineno, alias.name) for alias in node.names if alias.name in RAW_NAMES]
    return sorted(set(found))


def modules():
    """Every module of the site outside the search app and outside migrations."""
    return sorted(
        path
        for path in PACKAGE.rglob("*.py")
        if ALLOWED not in path.parents and "migrations" not in path.relative_to(PACKAGE).parts
    )


def test_no_module_outside_the_search_app_runs_raw_sql():
    checked = modules()
    apps = {path.parent for path in PACKAGE.glob("*/apps.py")} - {ALLOWED}
    assert apps and all(any(app in path.parents for path in checked) for app in apps)  # every other app is read
    assert not any(ALLOWED in path.parents for path in checked)
    offending = {
        str(path.relative_to(ROOT)): uses
        for path in checked
        if (uses := raw_sql(path.read_text(encoding="utf-8"), str(path)))
    }
    assert offending == {}, "raw SQL outside ipgsite/search/: ask the search app through a function, or the ORM"


def test_the_search_app_is_where_the_index_is_asked_in_sql():
    """The rule above is not vacuous: the scan finds the SQL of the search app's migrations."""
    assert raw_sql((ALLOWED / "migrations" / "0006_drop_text_indexes.py").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "source",
    [
        "from django.db import connection\nwith connection.cursor() as c:\n    c.execute('SELECT 1')",
        "from django.db import connections\nconnections['default'].cursor()",
        "def f(cursor, rows):\n    cursor.executemany('INSERT INTO t VALUES (%s)', rows)",
        "Paragraph.objects.raw('SELECT * FROM ipg_paragraph')",
        "Paragraph.objects.extra(where=['1 = 1'])",
        "from django.db.models.expressions import RawSQL\nx = 1",
        "from django.db.models import expressions\nexpressions.RawSQL('1', [])",
        "from django.db import migrations\nmigrations.RunSQL('SELECT 1')",
    ],
)
def test_the_scan_sees_each_way_of_running_sql(source):
    assert raw_sql(source)


@pytest.mark.parametrize(
    "source",
    [
        '"""Not connection.cursor(), nor .raw( in a docstring."""',
        "# cursor.execute('SELECT 1') in a comment",
        "Paragraph.objects.filter(text__icontains='raw')",
        "text = 'RawSQL'",
        "SaveTranslation(user, p, 'ja', text, 3).execute()",  # a workspace action: no SQL in it
    ],
)
def test_words_in_comments_docstrings_and_strings_count_for_nothing(source):
    assert raw_sql(source) == []
