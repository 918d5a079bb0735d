"""Every interface string has a Chinese and a Japanese translation: makemessages, run on a copy of the project,
finds nothing untranslated in any catalogue (the project's locale/ and every app's ipgsite/<app>/locale/).

The copy also gets a template and a Python module with a new, untranslated string each: the check must report
exactly those two, which shows that it fails when someone adds a string without translating it.

Every Chinese and Japanese string punctuates in full width (，、：；！？（）), never ASCII , : ; ! ? ( ) outside
placeholders, markup and addresses, but for written syntax between two ASCII letters or digits ("2.3:example-c")."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
LOCALES = ("ja", "zh_Hans")
IGNORED = (".venv/*", "tests/*", "bench/*", "static/*", "node_modules/*")
CANARY_TEMPLATE = "A canary string in a template, not translated"
CANARY_PYTHON = "A canary string in Python, not translated"


def untranslated(root):
    """{locale: {msgid}}: strings that no catalogue of the locale translates (empty, or fuzzy, everywhere)."""
    found = {}
    for locale in LOCALES:
        translated, wanted = set(), set()
        paths = [root / "locale" / locale / "LC_MESSAGES" / "django.po"]
        paths += sorted(root.glob(f"ipgsite/*/locale/{locale}/LC_MESSAGES/django.po"))
        for path in paths:
            for entry in polib.pofile(str(path)):
                if entry.obsolete:
                    continue
                wanted.add(entry.msgid)
                if entry.translated():  # polib: not fuzzy, and every msgstr (and plural form) non-empty
                    translated.add(entry.msgid)
        found[locale] = wanted - translated
    return found


@pytest.fixture(scope="module")
def catalogues_after_makemessages(tmp_path_factory):
    copy = tmp_path_factory.mktemp("project")
    shutil.copy(ROOT / "manage.py", copy)
    for folder in ("ipgsite", "templates", "locale"):
        shutil.copytree(ROOT / folder, copy / folder, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
    (copy / "ipgsite" / "workspace" / "templates" / "workspace" / "zz_canary.html").write_text(
        f'{{% load i18n %}}<p>{{% translate "{CANARY_TEMPLATE}" %}}</p>\n'
    )
    (copy / "ipgsite" / "workspace" / "zz_canary.py").write_text(
        f'from django.utils.translation import gettext_lazy as _\n\nCANARY = _("{CANARY_PYTHON}")\n'
    )
    command = [sys.executable, "manage.py", "makemessages", *[f"--locale={code}" for code in LOCALES]]
    command += [f"--ignore={pattern}" for pattern in IGNORED]
    env = {**os.environ, "DEBUG": "1", "DJANGO_SETTINGS_MODULE": "ipgsite.settings", "PYTHONPATH": str(copy)}
    result = subprocess.run(command, cwd=copy, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return untranslated(copy)


def test_makemessages_finds_no_untranslated_string_but_the_new_ones(catalogues_after_makemessages):
    for locale in LOCALES:
        assert catalogues_after_makemessages[locale] == {CANARY_TEMPLATE, CANARY_PYTHON}, locale


def test_the_catalogues_in_the_repository_are_complete():
    assert untranslated(ROOT) == {locale: set() for locale in LOCALES}


PLACEHOLDER = re.compile(
    r"%\([a-z_]+\)[-0-9.]*[sdf]|%[sd]|\{\{[^}]*\}\}|\{[a-z_]*\}|<code>.*?</code>|<[^>]*>|https?://\S+"
)
ASCII_PUNCTUATION = re.compile(r"(?<![A-Za-z0-9])[,:;!?()]|[,:;!?()](?![A-Za-z0-9])")


def ascii_punctuation(text):
    """The ASCII punctuation a reader of a Chinese or Japanese string would see, placeholders and markup aside."""
    return ASCII_PUNCTUATION.findall(PLACEHOLDER.sub("\x00", text))


def test_the_punctuation_check_tells_ascii_from_full_width():
    assert ascii_punctuation("違反ファインダー:一致する質問") == [":"]
    assert ascii_punctuation("あるのはEnglish, 简体中文です") == [","]
    assert ascii_punctuation("注释(%(counter)s)") == ["(", ")"]
    assert ascii_punctuation("違反ファインダー：一致する質問（%(counter)s）") == []
    assert ascii_punctuation('段落は 2.3:example-c のように指定します。<a href="/ja/">%(name)s</a>') == []


def test_chinese_and_japanese_strings_punctuate_in_full_width():
    found = []
    for locale in LOCALES:
        paths = [ROOT / "locale" / locale / "LC_MESSAGES" / "django.po"]
        paths += sorted(ROOT.glob(f"ipgsite/*/locale/{locale}/LC_MESSAGES/django.po"))
        for path in paths:
            for entry in polib.pofile(str(path)):
                for text in [entry.msgstr, *entry.msgstr_plural.values()]:
                    if not entry.obsolete and ascii_punctuation(text):
                        found.append(f"{path.relative_to(ROOT)}: {text}")
    assert not found, "\n".join(found)
