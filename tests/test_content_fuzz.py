"""Content files mutated at random: each loads, or is refused with a ContentError naming the file; never a traceback.

A valid section file (and chapters.toml) is parsed, a few values anywhere in it are replaced with values of
other types and edge values, or removed, or copied from elsewhere in the file, and the result is written back
as TOML. The loader must either accept it, or refuse it with the project's message; what it accepts must export
and read back to the same file, and load into the real database (SQLite or PostgreSQL, whichever the tests run on).
"""

import datetime
import json
import re
import shutil
import tomllib
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import transaction
from hypothesis import HealthCheck, event, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from ipgsite.contentfiles.sections import dump_section, parse_chapters, parse_section
from ipgsite.contentfiles.toml import ContentError, toml_string
from ipgsite.ipg.documents import NoteDoc, ParagraphDoc, SectionDoc

SECTION = (settings.CONTENT_DIR / "sections" / "2.3.toml").read_text(encoding="utf-8")
CHAPTERS = (settings.CONTENT_DIR / "chapters.toml").read_text(encoding="utf-8")
NO_FIXTURE_RESET = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large]


def _values_in(data):
    found = []
    if isinstance(data, dict):
        for value in data.values():
            found += [value, *_values_in(value)]
    elif isinstance(data, list):
        for value in data:
            found += [value, *_values_in(value)]
    return found


def _strings(data):
    return sorted({v for v in _values_in(data) if isinstance(v, str) and len(v) < 80} | set(_keys_in(data)))


def _keys_in(data):
    keys = set()
    if isinstance(data, dict):
        keys |= set(data)
        for value in data.values():
            keys |= _keys_in(value)
    elif isinstance(data, list):
        for value in data:
            keys |= _keys_in(value)
    return keys


def odd_values(known_strings):
    scalars = st.one_of(
        st.integers(),
        st.sampled_from([0, -1, 2**31 - 1, 2**31, 2**63 - 1, -(2**63)]),
        st.booleans(),
        st.floats(),
        st.text(max_size=20),
        st.sampled_from(["", " ", "\x00", "a\x00b", "\t", "\n", "\u2028", "\x7f", "zh-hans", "ZH-HANS", "fr"]),
        st.sampled_from(known_strings),
        st.integers(0, 260).map(lambda n: "x" * n),
        st.sampled_from([15, 16, 17, 63, 64, 65, 199, 200, 201]).map(lambda n: "2." + "1" * (n - 2)),
        st.dates(),
        st.datetimes(),
        st.times(),
    )
    return st.one_of(
        scalars,
        st.lists(scalars, max_size=3),
        st.dictionaries(st.sampled_from(known_strings), scalars, max_size=3),
        st.lists(st.dictionaries(st.sampled_from(known_strings), scalars, max_size=3), max_size=2),
    )


# Texts whose lines look like TOML, or that end or escape multi-line strings.
TRICKY_TEXTS = [
    'a\n"""\nb',
    '""""""\n""',
    'ends in a quote"',
    'x\\\n[[paragraphs]]\nkey = "y"',
    "\n[[notes]]\nparagraph = 'z'\n",
    "'''\n[title]\n'''",
    "# not a comment\n  en = 1",
]


def plausible_values(value, known_strings):
    """Values of the same type as `value`: mostly accepted, but reaching the edges (lengths, NUL, duplicates)."""
    strings = st.one_of(
        st.sampled_from(known_strings),
        st.sampled_from(TRICKY_TEXTS),
        st.text(min_size=1, max_size=30),
        st.sampled_from([15, 16, 17, 63, 64, 65, 199, 200, 201]).map(lambda n: "x" * n),
        st.sampled_from(known_strings).map(lambda s: s + "\x00"),
    )
    if isinstance(value, bool):
        return st.booleans()
    if isinstance(value, int):
        return st.one_of(st.integers(-5, 100), st.sampled_from([2**31 - 1, 2**31, 2**63 - 1]))
    if isinstance(value, str):
        return strings
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return st.lists(strings, max_size=4)
    return st.just(value)


def _paths(data, prefix=()):
    paths = []
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else []
    for key, value in items:
        paths.append((*prefix, key))
        paths += _paths(value, (*prefix, key))
    return paths


@st.composite
def mutated(draw, text):
    data = tomllib.loads(text)
    known = _strings(data)
    for _ in range(draw(st.integers(1, 2))):
        paths = _paths(data)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = data
        for step in path[:-1]:
            parent = parent[step]
        action = draw(st.sampled_from(["plausible"] * 5 + ["replace", "replace", "copy", "delete", "add"]))
        if action == "plausible":
            parent[path[-1]] = draw(plausible_values(parent[path[-1]], known))
        elif action == "replace":
            parent[path[-1]] = draw(odd_values(known))
        elif action == "copy":
            parent[path[-1]] = json.loads(json.dumps(draw(st.sampled_from(_values_in(data))), default=str))
        elif action == "delete":
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[draw(st.sampled_from(known))] = draw(odd_values(known))
        else:
            parent.append(draw(odd_values(known)))
    return to_toml(data, draw(st.booleans()))


def _toml_key(key):
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _basic_string(key)


def _basic_string(value):
    return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")


def _inline(value, multiline):
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (int, float)):
        return {"inf": "inf", "-inf": "-inf", "nan": "nan"}.get(str(value), repr(value))
    if isinstance(value, str):
        return toml_string(value) if multiline else _basic_string(value)
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(_inline(v, False) for v in value) + "]"
    return "{" + ", ".join(f"{_toml_key(k)} = {_inline(v, False)}" for k, v in value.items()) + "}"


def to_toml(data, multiline):
    """Write `data` as TOML the way content files are written: [tables] and [[arrays of tables]] where they can be."""
    lines, tables, arrays = [], [], []
    for key, value in data.items():
        if isinstance(value, dict) and value:
            tables.append((key, value))
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            arrays.append((key, value))
        else:
            lines.append(f"{_toml_key(key)} = {_inline(value, multiline)}")
    for key, value in tables:
        lines += ["", f"[{_toml_key(key)}]", *(f"{_toml_key(k)} = {_inline(v, multiline)}" for k, v in value.items())]
    for key, value in arrays:
        for table in value:
            lines += [
                "",
                f"[[{_toml_key(key)}]]",
                *(f"{_toml_key(k)} = {_inline(v, multiline)}" for k, v in table.items()),
            ]
    return "\n".join(lines) + "\n"


def assert_refused_clearly(error, path, text):
    assert isinstance(error, ContentError), f"{type(error).__name__}: {error}"
    assert str(error).startswith(f"{path}")
    assert error.message
    assert error.line is None or 1 <= error.line <= text.count("\n") + 1


@hypothesis_settings(max_examples=400, deadline=None, suppress_health_check=NO_FIXTURE_RESET)
@given(text=mutated(SECTION))
def test_a_mutated_section_file_is_read_or_refused_with_a_content_error(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("sections") / "2.3.toml"
    path.write_text(text, encoding="utf-8")
    try:
        doc = parse_section(path)
    except ContentError as error:
        assert_refused_clearly(error, path, text)
        event("refused")
        return
    except Exception as error:  # the point of the test: anything else is a traceback for the editor
        pytest.fail(f"{type(error).__name__}: {error}\n--- {path.name}\n{text}")
    event("read")
    # What is accepted exports to a file that reads back the same, with every paragraph and note at its header.
    exported = dump_section(doc)
    path.write_text(exported, encoding="utf-8")
    again = parse_section(path)
    assert dump_section(again) == exported
    lines = exported.split("\n")
    assert all(lines[p.line - 1] == "[[paragraphs]]" for p in again.paragraphs)
    assert all(lines[n.line - 1] == "[[notes]]" for n in again.notes)


@hypothesis_settings(max_examples=200, deadline=None, suppress_health_check=NO_FIXTURE_RESET)
@given(text=mutated(CHAPTERS))
def test_a_mutated_chapters_file_is_read_or_refused_with_a_content_error(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("content") / "chapters.toml"
    path.write_text(text, encoding="utf-8")
    try:
        parse_chapters(path)
    except ContentError as error:
        assert_refused_clearly(error, path, text)
    except Exception as error:
        pytest.fail(f"{type(error).__name__}: {error}\n--- {path.name}\n{text}")


@hypothesis_settings(max_examples=400, deadline=None)
@given(value=st.text())
def test_the_writer_writes_any_text_so_that_it_reads_back(value):
    assert tomllib.loads(f"x = {toml_string(value)}")["x"] == value


@pytest.fixture
def content(tmp_path):
    copy = tmp_path / "content"
    shutil.copytree(settings.CONTENT_DIR, copy)
    return copy


@pytest.mark.database  # what one database refuses (a NUL, a length) the other may keep
@hypothesis_settings(max_examples=60, deadline=None, suppress_health_check=NO_FIXTURE_RESET)
@given(section=mutated(SECTION), chapters=st.one_of(*[st.just(CHAPTERS)] * 3, mutated(CHAPTERS)))
def test_loadcontent_loads_a_mutated_file_or_refuses_it_on_this_database(ipg, content, section, chapters):
    (content / "sections" / "2.3.toml").write_text(section, encoding="utf-8")
    (content / "chapters.toml").write_text(chapters, encoding="utf-8")
    with transaction.atomic():
        try:
            call_command("loadcontent", str(content), stdout=StringIO())
            event("loaded")
        except CommandError as error:
            assert str(error).startswith(f"Nothing was loaded. {content}")
            event("refused")
        transaction.set_rollback(True)


texts = st.one_of(st.sampled_from(TRICKY_TEXTS), st.text(min_size=1)).filter(lambda t: t.strip() and "\x00" not in t)


@hypothesis_settings(max_examples=300, deadline=None, suppress_health_check=NO_FIXTURE_RESET)
@given(paragraph_texts=st.lists(texts, min_size=1, max_size=4), note_texts=st.lists(texts, max_size=4))
def test_errors_point_at_the_right_line_whatever_the_texts_hold(tmp_path_factory, paragraph_texts, note_texts):
    doc = SectionDoc(number="2.3", chapter="2", order=23, penalty="", title={"en": "Title"})
    doc.paragraphs = [ParagraphDoc(key=f"p-{i}", part="text", texts={"en": t}) for i, t in enumerate(paragraph_texts)]
    doc.notes = [NoteDoc(paragraph="p-0", language="en", source="a source", bodies={"en": t}) for t in note_texts]
    path = tmp_path_factory.mktemp("sections") / "2.3.toml"
    path.write_text(dump_section(doc), encoding="utf-8")
    lines = path.read_text(encoding="utf-8").split("\n")

    again = parse_section(path)
    assert [lines[p.line - 1] for p in again.paragraphs] == ["[[paragraphs]]"] * len(paragraph_texts)
    assert [lines[n.line - 1] for n in again.notes] == ["[[notes]]"] * len(note_texts)

    # A mistake in the last paragraph is reported at its own line.
    last = max(n for n, line in enumerate(lines, 1) if line == 'part = "text"')
    lines[last - 1] = 'part = "txt"'
    path.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(ContentError) as error:
        parse_section(path)
    assert error.value.line == last
