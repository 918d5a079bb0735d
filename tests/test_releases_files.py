"""Releases: publishing, content/releases/ as full snapshots, the byte-identical round trip, malformed files."""

import datetime
import filecmp
import shutil
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from hypothesis import HealthCheck, assume, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from edits import change, delete, write, write_note
from ipgsite.contentfiles.releases import dump_release, export_releases, load_releases, parse_release
from ipgsite.contentfiles.sections import read_content
from ipgsite.contentfiles.toml import ContentError
from ipgsite.finder.models import Example
from ipgsite.ipg.models import Note, Paragraph, Section
from ipgsite.releases.models import Release
from ipgsite.releases.publishing import PublishError, publish
from ipgsite.releases.snapshots import frozen_from_doc, section_as_of, state_of

FIRST, SECOND = datetime.date(2024, 9, 23), datetime.date(2025, 2, 10)

# Obviously made-up strings: the test database only.
NEW_PARAGRAPH_EN = "TEST made-up paragraph added after the first release."


def edit_for_second_release():
    """The edits between the two releases: English, Chinese and Japanese text of one paragraph, a note,
    a paragraph added, one removed, a penalty."""
    hidden = Section.objects.get(number="2.3")
    definition = hidden.paragraphs.get(key="definition-1")
    write(
        "2.3",
        "definition-1",
        "en",
        definition.text_en.replace("commits an error in the game", "makes a TESTWORD mistake in the game"),
    )
    write("2.3", "definition-1", "zh-hans", definition.text_zh_hans.replace("牌手在游戏中", "选手在游戏中"))
    write("2.3", "definition-1", "ja", definition.text_ja.replace("誤りを犯した", "間違いを犯した"))
    note = Note.objects.get(paragraph__section=hidden, paragraph__key="example-c")
    write_note(note, "ja", note.body_ja.replace("忘れなかったものの", "覚えていたものの"))
    delete(hidden.paragraphs.get(key="example-e"))
    last = hidden.paragraphs.order_by("-order").first()
    added = change(Paragraph(section=hidden, key="example-g"), part="example", order=last.order + 1)
    write("2.3", added.key, "en", NEW_PARAGRAPH_EN)
    # A new example is a worked case of the finder too (checkcontent refuses an example with no recorded path).
    Example.objects.create(paragraph="2.3#example-g", answers=["in-game", "no-trigger", "no", "no", "no", "yes"])
    Section.objects.filter(number="2.4").update(penalty="game-loss")


@pytest.fixture
def content(tmp_path):
    """A copy of content/, releases included."""
    copy = tmp_path / "content"
    shutil.copytree(settings.CONTENT_DIR, copy)
    return copy


@pytest.fixture
def released(ipg):
    """content/ loaded with its releases."""
    load_releases(settings.CONTENT_DIR)
    return Release.objects


def test_the_shipped_release_is_the_working_text_with_no_title(released):
    release = released.get()
    assert release.date == FIRST
    assert [release.title_in(code) for code in ("en", "zh-hans", "ja")] == ["", "", ""]
    frozen = section_as_of(release, "2.3")
    hidden = Section.objects.get(number="2.3")
    assert frozen["title"] == {"en": hidden.title_en, "zh-hans": hidden.title_zh_hans, "ja": hidden.title_ja}
    assert frozen["penalty"] == "warning"
    assert [p["key"] for p in frozen["paragraphs"]] == list(
        hidden.paragraphs.order_by("order").values_list("key", flat=True)
    )
    first = frozen["paragraphs"][0]
    assert first["texts"]["ja"] == hidden.paragraphs.get(key="definition-1").text_ja
    assert [n["order"] for n in first["notes"]] == [1, 2, 3]
    assert section_as_of(release, "9.9") is None
    text = (settings.CONTENT_DIR / "releases" / "2024-09-23.toml").read_text()
    assert text.count("[[sections]]") == 30 and "[title]" not in text


def test_the_shipped_release_file_is_exactly_the_working_text_of_content_sections():
    """Its file once listed no differences from content/sections: its full snapshot is that text, every section."""
    _chapters, docs = read_content(settings.CONTENT_DIR)
    _release, state, _lines = parse_release(settings.CONTENT_DIR / "releases" / "2024-09-23.toml")
    assert state == {doc.number: frozen_from_doc(doc) for doc in docs}


@pytest.mark.database  # releases are stored as JSON (jsonb on PostgreSQL)
def test_load_then_export_reproduces_the_release_files_byte_for_byte(released, tmp_path):
    out = tmp_path / "exported"
    assert export_releases(out) == 1
    assert filecmp.cmp(
        settings.CONTENT_DIR / "releases" / "2024-09-23.toml", out / "releases" / "2024-09-23.toml", shallow=False
    )
    assert export_releases(out) == 0


def test_publishing_needs_a_newer_date(released):
    with pytest.raises(PublishError, match="newer than the newest one"):
        publish(FIRST)
    with pytest.raises(CommandError, match="not a date"):
        call_command("publishrelease", "2024-9-30", stdout=StringIO())
    with pytest.raises(CommandError, match="Nothing was published"):
        call_command("publishrelease", "2024-01-01", stdout=StringIO())
    out = StringIO()
    call_command("publishrelease", "2025-02-10", "--title", "TEST title", stdout=out)
    assert "Published release 2025-02-10: 30 sections frozen" in out.getvalue()
    assert Release.objects.get(date=SECOND).title_en == "TEST title"


def test_a_published_release_keeps_its_text_while_the_working_text_changes(released):
    publish(SECOND)
    edit_for_second_release()
    second = Release.objects.get(date=SECOND)
    frozen = section_as_of(second, "2.3")
    assert "commits an error in the game" in frozen["paragraphs"][0]["texts"]["en"]
    assert "example-e" in [p["key"] for p in frozen["paragraphs"]]
    assert section_as_of(second, "2.4")["penalty"] == "warning"


@pytest.mark.database  # releases are stored as JSON (jsonb on PostgreSQL)
def test_the_whole_cycle_survives_export_and_load_byte_for_byte(released, content, tmp_path):
    edit_for_second_release()
    publish(SECOND)
    # And the working text moves on after the second release.
    Section.objects.filter(number="2.5").update(penalty="match-loss")
    states = {r.date: state_of(r) for r in Release.objects.all()}

    call_command("exportcontent", str(content), stdout=StringIO())
    export_releases(content)  # (exportcontent may already have: then this changes nothing)
    assert sorted(p.name for p in (content / "releases").iterdir()) == ["2024-09-23.toml", "2025-02-10.toml"]
    older = (content / "releases" / "2024-09-23.toml").read_text()
    # Each file holds its release in full: the first the text before the edits, the second the text after them.
    assert 'en = "A player commits an error in the game' in older and "TESTWORD" not in older
    assert 'key = "example-e"' in older and 'key = "example-g"' not in older
    assert "忘れなかったものの" in older and "覚えていたものの" not in older
    newer = (content / "releases" / "2025-02-10.toml").read_text()
    assert "TESTWORD" in newer and 'key = "example-g"' in newer and 'key = "example-e"' not in newer
    # The working text moved on after the second release; neither release file did.
    assert 'number = "2.5"\norder = 25\npenalty = "warning"' in newer

    Release.objects.all().delete()
    for section in Section.objects.all():
        delete(section)
    call_command("loadcontent", str(content), stdout=StringIO())
    load_releases(content)
    assert {r.date: state_of(r) for r in Release.objects.all()} == states

    again = tmp_path / "again"
    call_command("exportcontent", str(again), stdout=StringIO())
    export_releases(again)
    for name in ("2024-09-23.toml", "2025-02-10.toml"):
        assert (again / "releases" / name).read_bytes() == (content / "releases" / name).read_bytes()


def test_loading_twice_changes_nothing_and_keeps_releases_without_a_file(released, content):
    assert load_releases(settings.CONTENT_DIR) == {"created": 0, "updated": 0, "kept": []}
    publish(SECOND)
    assert load_releases(settings.CONTENT_DIR) == {"created": 0, "updated": 0, "kept": [SECOND]}
    assert list(Release.objects.values_list("date", flat=True)) == [SECOND, FIRST]


def test_export_keeps_a_release_file_whose_release_the_database_does_not_hold(released, content):
    kept = content / "releases" / "2023-01-01.toml"
    kept.write_text('date = "2023-01-01"\n')
    assert export_releases(content) == 0
    assert kept.read_text() == 'date = "2023-01-01"\n'
    out = StringIO()
    call_command("exportcontent", str(content), stdout=out)
    assert kept.exists()
    assert "Kept 1 release files whose release the database does not hold: 2023-01-01.toml" in out.getvalue()


# A published release is never lost to a load: only `deleterelease` deletes one (the reviewer's case: two releases
# published with publishrelease, then loadcontent).

THIRD, FOURTH = "2025-01-01", "2025-06-01"


def publish_two_without_files(client):
    call_command("publishrelease", THIRD, stdout=StringIO())
    write("2.3", "example-b", "en", "TEST example B as the second new release has it, made up for this test.")
    call_command("publishrelease", FOURTH, stdout=StringIO())
    assert client.get(f"/en/changes/{FOURTH}/").status_code == 200


def loadcontent(*args):
    out = StringIO()
    call_command("loadcontent", *args, stdout=out)
    return out.getvalue()


def test_loadcontent_keeps_published_releases_that_have_no_file_and_says_so(released, client):
    publish_two_without_files(client)
    out = loadcontent("--discard-edits")  # the working text's edit after THIRD is not in content/: a test's own
    assert f"Kept 2 published releases that have no file in {settings.CONTENT_DIR}/releases/: {FOURTH}, {THIRD}" in out
    assert sorted(d.isoformat() for d in Release.objects.values_list("date", flat=True)) == [
        "2024-09-23",
        THIRD,
        FOURTH,
    ]
    # Their pages are all still there: the changes pages, the section as each froze it, the API.
    changes = client.get("/en/changes/").content.decode()
    assert f"/en/changes/{THIRD}/" in changes and f"/en/changes/{FOURTH}/" in changes
    fourth = client.get(f"/en/changes/{FOURTH}/")
    assert fourth.status_code == 200 and "example-b" in fourth.content.decode()
    page = client.get(f"/en/ipg/2.3/?release={FOURTH}")
    assert page.status_code == 200 and "as the second new release has it" in page.content.decode()
    assert "as the second new release has it" not in client.get("/en/ipg/2.3/").content.decode()
    api = client.get(f"/api/ipg/2.3/?release={FOURTH}").json()
    assert api["release"] == FOURTH
    assert [r["date"] for r in client.get("/api/releases/").json()["releases"]] == [FOURTH, THIRD, "2024-09-23"]


def test_deleterelease_refuses_a_release_the_next_ones_changes_page_names_unless_forced(released, client, content):
    publish_two_without_files(client)
    with pytest.raises(CommandError) as refused:
        call_command("deleterelease", THIRD, str(content), stdout=StringIO())
    assert f"the changes page of release {FOURTH}, which lists what changed since {THIRD}" in str(refused.value)
    assert "--force" in str(refused.value)
    assert Release.objects.filter(date=THIRD).exists()

    out = StringIO()
    call_command("deleterelease", THIRD, str(content), "--force", stdout=out)
    assert f"Deleted release {THIRD}: from the database; it had no file." in out.getvalue()
    assert not Release.objects.filter(date=THIRD).exists()
    # The next release's changes are now since the release before the deleted one.
    page = client.get(f"/en/changes/{FOURTH}/").content.decode()
    assert "Since the release of 2024-09-23" in page and "example-b" in page
    assert client.get(f"/en/ipg/2.3/?release={THIRD}").status_code == 404


def test_deleterelease_deletes_the_newest_release_and_its_file(
    released, client, content, django_capture_on_commit_callbacks
):
    publish_two_without_files(client)
    call_command("exportcontent", str(content), stdout=StringIO())
    assert (content / "releases" / f"{FOURTH}.toml").exists()
    out = StringIO()
    with django_capture_on_commit_callbacks(execute=True):  # the file goes once the deletion is committed
        call_command("deleterelease", FOURTH, str(content), stdout=out)
    assert f"Deleted release {FOURTH}: from the database, and its file" in out.getvalue()
    assert not (content / "releases" / f"{FOURTH}.toml").exists()
    assert (content / "releases" / f"{THIRD}.toml").exists()
    assert list(Release.objects.values_list("date", flat=True)) == [datetime.date(2025, 1, 1), FIRST]
    # A load of those files does not bring it back, and keeps the rest.
    assert "Kept" not in loadcontent(str(content))
    assert not Release.objects.filter(date=FOURTH).exists()


@pytest.mark.parametrize(
    "args, message",
    [
        (["2025-13-01"], "not a date written as YYYY-MM-DD"),
        (["2023-03-03"], "There is no release of 2023-03-03"),
    ],
)
def test_deleterelease_says_what_is_wrong_with_its_date(released, args, message):
    with pytest.raises(CommandError, match=message):
        call_command("deleterelease", *args, stdout=StringIO())


def write_release(content, name, text):
    path = content / "releases" / name
    path.write_text(text, encoding="utf-8")
    return path


HEAD = 'date = "2023-05-01"\n'


SECTION_TABLE = '[[sections]]\nnumber = "2.3"\norder = 23\npenalty = "warning"\ntitle = { en = "T" }\n'
PARAGRAPH_TABLE = '\n[[sections.paragraphs]]\nkey = "definition-1"\npart = "definition"\nen = "x"\n'


@pytest.mark.parametrize(
    "name, text, message",
    [
        ("2023-05-01.toml", 'date = "2023-05-01"\n[[sections\n', "2023-05-01.toml:2: TOML syntax error"),
        ("2023-05-01.toml", 'date = "2023-5-1"\n', "must be a release date"),
        ("2023-05-01.toml", "date = 2023-05-01\n", "must be a release date"),
        ("2023-05-02.toml", HEAD, "must be in a file named 2023-05-01.toml"),
        ("2023-05-01.toml", HEAD + 'colour = "red"\n', "unknown field 'colour' in the release"),
        (
            "2023-05-01.toml",
            HEAD + '[announcement]\nen = "javascript:alert(1)"\n',
            "[announcement] en must be an http(s) address",
        ),
        ("2023-05-01.toml", HEAD + '[title]\nfr = "Titre"\n', "unknown field 'fr' in [title]"),
        ("2023-05-01.toml", HEAD + '[[sections]]\nnumber = "9.9"\n', "section 9.9: order is missing"),
        ("2023-05-01.toml", HEAD + SECTION_TABLE.replace("warning", "caution"), "unknown penalty 'caution'"),
        (
            "2023-05-01.toml",
            HEAD + SECTION_TABLE.replace('{ en = "T" }', '{ ja = "T" }'),
            "the title needs an en title",
        ),
        ("2023-05-01.toml", HEAD + SECTION_TABLE + "absent = true\n", "unknown field 'absent' in a section"),
        ("2023-05-01.toml", HEAD + SECTION_TABLE + SECTION_TABLE, "2023-05-01.toml:8: section 2.3 is listed twice"),
        (
            "2023-05-01.toml",
            HEAD + SECTION_TABLE + SECTION_TABLE.replace('"2.3"', '"2.4"'),
            "section 2.4: order 23 is already section 2.3's",
        ),
        (
            "2023-05-01.toml",
            HEAD + SECTION_TABLE + PARAGRAPH_TABLE.replace('definition"', 'preface"'),
            "unknown part 'preface'",
        ),
        ("2023-05-01.toml", HEAD + SECTION_TABLE + PARAGRAPH_TABLE.replace('"x"', '""'), "the en text is empty"),
        ("2023-05-01.toml", HEAD + SECTION_TABLE + PARAGRAPH_TABLE + 'missing = ["ja"]\n', "unknown field 'missing'"),
        (
            "2023-05-01.toml",
            HEAD + SECTION_TABLE + PARAGRAPH_TABLE + PARAGRAPH_TABLE,
            "2023-05-01.toml:14: section 2.3: paragraph 'definition-1' is listed twice",
        ),
        (
            "2023-05-01.toml",
            HEAD + SECTION_TABLE + PARAGRAPH_TABLE.replace("definition-1", "Nope"),
            "paragraph key 'Nope'",
        ),
        (
            "2023-05-01.toml",
            HEAD
            + SECTION_TABLE
            + PARAGRAPH_TABLE
            + '\n[[sections.notes]]\nparagraph = "nowhere"\nlanguage = "ja"\nsource = "s"\nja = "x"\n',
            "a note on paragraph 'nowhere', which it does not have",
        ),
        (
            "2023-05-01.toml",
            HEAD
            + SECTION_TABLE
            + PARAGRAPH_TABLE
            + '\n[[sections.notes]]\nparagraph = "definition-1"\nlanguage = "ja"\nsource = "s"\nen = "x"\n',
            "note 1 on 'definition-1': no text in its own language 'ja'",
        ),
    ],
)
def test_a_malformed_release_file_is_refused_naming_file_and_key_and_loads_nothing(
    released, content, name, text, message
):
    write_release(content, name, text)
    before = list(Release.objects.values_list("date", "title_en"))
    with pytest.raises(ContentError) as error:
        load_releases(content)
    assert message in str(error.value)
    assert name in str(error.value)
    assert list(Release.objects.values_list("date", "title_en")) == before


def test_a_well_formed_file_of_the_same_shapes_loads(released, content):
    """The counterpart of the refusals above: the same kinds of entries, written right, are accepted."""
    write_release(
        content,
        "2023-05-01.toml",
        HEAD
        + SECTION_TABLE.replace("warning", "game-loss")
        + PARAGRAPH_TABLE
        + '\n[[sections.notes]]\nparagraph = "definition-1"\nlanguage = "ja"\nsource = "s"\nja = "TEST made-up"\n'
        + '\n[[sections.paragraphs]]\nkey = "example-z"\npart = "example"\nbullet = true\nen = "TEST made-up"\n'
        + SECTION_TABLE.replace('"2.3"', '"2.4"').replace("23", "24"),
    )
    load_releases(content)
    old = section_as_of(Release.objects.get(date=datetime.date(2023, 5, 1)), "2.3")
    assert old["penalty"] == "game-loss"
    assert [p["key"] for p in old["paragraphs"]] == ["definition-1", "example-z"]
    assert old["paragraphs"][0]["notes"][0]["bodies"] == {"ja": "TEST made-up"}
    assert old["paragraphs"][1]["bullet"] is True
    assert section_as_of(Release.objects.get(date=datetime.date(2023, 5, 1)), "2.5") is None
    # Written back exactly as it was written.
    before = (content / "releases" / "2023-05-01.toml").read_text()
    export_releases(content)
    assert "example-z" in (content / "releases" / "2023-05-01.toml").read_text()
    assert parse_release(content / "releases" / "2023-05-01.toml")[1] == parse_release_text(content, before)


def parse_release_text(content, text):
    path = content / "releases" / "elsewhere" / "2023-05-01.toml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return parse_release(path)[1]


def _keys_of(number):
    return list(Paragraph.objects.filter(section__number=number).order_by("order").values_list("key", flat=True))


# Any state: written and read back, it is the same state, and writes the same bytes.

# Any text a content file can hold: no surrogates, no NUL (both are refused on load)
TEXT = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), min_size=1, max_size=30
).filter(str.strip)
LANGUAGES = ["en", "zh-hans", "ja"]


def texts(required=None):
    return st.fixed_dictionaries(
        {required: TEXT} if required else {}, optional={code: TEXT for code in LANGUAGES if code != required}
    )


NOTE = st.sampled_from(LANGUAGES).flatmap(
    lambda code: st.fixed_dictionaries({"language": st.just(code), "source": TEXT, "bodies": texts(code)})
)


def paragraph(key):
    return st.fixed_dictionaries(
        {
            "key": st.just(key),
            "part": st.sampled_from(["text", "definition", "example"]),
            "bullet": st.booleans(),
            "texts": texts(),
            "notes": st.lists(NOTE, max_size=2),
        }
    )


SECTION = st.lists(st.sampled_from(["a-1", "a-2", "b-1", "c-1"]), unique=True, max_size=4).flatmap(
    lambda keys: st.tuples(
        st.integers(0, 50),
        st.fixed_dictionaries(
            {
                "title": texts("en"),
                "penalty": st.sampled_from(["", "warning", "game-loss"]),
                "paragraphs": st.tuples(*(paragraph(k) for k in keys)).map(list),
            }
        ),
    )
)
STATE = st.dictionaries(st.sampled_from(["1.1", "2.3", "2.4", "A"]), SECTION, max_size=3)


@pytest.mark.database  # releases are stored as JSON (jsonb on PostgreSQL)
@hypothesis_settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(state=STATE)
def test_any_release_round_trips(tmp_path, state):
    orders = [order for order, _content in state.values()]
    assume(len(set(orders)) == len(orders))  # two sections never share an order
    path = tmp_path / "2023-05-01.toml"
    metadata = {"date": "2023-05-01", "title": {}, "announcement": {}}
    text = dump_release(metadata, state)
    path.write_text(text, encoding="utf-8")
    _metadata, rebuilt, _lines = parse_release(path)
    assert rebuilt == state
    assert dump_release(metadata, rebuilt) == text


def test_deleterelease_refuses_a_release_whose_text_translations_follow(released):
    # The English of example B changes after the release: its translations now follow the release's English.
    write("2.3", "example-b", "en", "TEST example B edited after the release, made up for this test.")
    with pytest.raises(CommandError) as refused:
        call_command("deleterelease", FIRST.isoformat(), stdout=StringIO())
    assert "section 2.3, paragraph example-b: the zh-hans, ja text follows it" in str(refused.value)
    assert Release.objects.filter(date=FIRST).exists()
