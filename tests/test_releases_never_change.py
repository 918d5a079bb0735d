"""A published release never changes: not by an edit of the files, nor in the admin; its changes are computed once.

The scenario of the releases workflow (docs/releases.md), end to end: edit content/sections, loadcontent, publishrelease,
exportcontent, loadcontent into an empty database.
"""

import datetime
import random
import re
import shutil
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from edits import delete, write
from ipgsite.ipg.models import Chapter, Section
from ipgsite.releases.models import ChangedSection, Release
from ipgsite.releases.publishing import publish
from ipgsite.releases.snapshots import state_of
from pages import parse
from people import admin_form_data, client_for, editor, paragraph
from test_releases_files import FIRST, SECOND

pytestmark = pytest.mark.database  # releases are frozen as JSON, which PostgreSQL stores as jsonb (keys reordered)

OLD_EN = "A player scries two cards when they should only have scried one."
NEW_EN = "TEST an edited example B, made up for this test."
THIRD = "2025-06-01"


@pytest.fixture
def content(tmp_path):
    """A copy of content/, releases included."""
    copy = tmp_path / "content"
    shutil.copytree(settings.CONTENT_DIR, copy)
    return copy


def edit_file(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding="utf-8")


def load(directory, *options):
    out = StringIO()
    call_command("loadcontent", str(directory), *options, stdout=out)
    return out.getvalue()


def section_text(client, url):
    response = client.get(url)
    assert response.status_code == 200
    return parse(response.content).find("article").text()


def test_an_edited_file_leaves_the_release_as_it_was_and_is_what_the_next_release_changed(
    ipg, client, content, tmp_path
):
    edit_file(content / "sections" / "2.3.toml", OLD_EN, NEW_EN)
    load(content)

    released = section_text(client, "/en/ipg/2.3/?release=2024-09-23")
    assert OLD_EN in released and NEW_EN not in released
    assert NEW_EN in section_text(client, "/en/ipg/2.3/")

    call_command("publishrelease", SECOND.isoformat(), stdout=StringIO())
    response = client.get("/en/changes/2025-02-10/")
    assert response.status_code == 200
    page = parse(response.content)
    assert [s.attrs["id"] for s in page.find_all("section", class_="changed-section")] == ["section-2.3"]
    (change,) = page.find_all("div", class_="change")
    assert change.find("code").text() == "example-b"
    diff = change.find("p", class_="diff-text")
    assert "scries two cards" in diff.find("del").text() and "TEST an edited example" in diff.find("ins").text()

    # exportcontent, then loadcontent into an empty database: the same releases, the same changes page.
    states = {r.date: state_of(r) for r in Release.objects.all()}
    call_command("exportcontent", str(content), stdout=StringIO())
    assert OLD_EN in (content / "releases" / "2024-09-23.toml").read_text()
    assert NEW_EN in (content / "releases" / "2025-02-10.toml").read_text()
    Release.objects.all().delete()
    for section in Section.objects.all():
        delete(section)
    Chapter.objects.all().delete()
    load(content)
    assert {r.date: state_of(r) for r in Release.objects.all()} == states
    assert client.get("/en/changes/2025-02-10/").content == response.content


def test_a_release_file_that_disagrees_with_what_the_database_froze_is_refused(ipg, client, content):
    edit_file(content / "releases" / "2024-09-23.toml", OLD_EN, NEW_EN)
    edit_file(content / "sections" / "2.4.toml", 'penalty = "warning"', 'penalty = "game-loss"')
    with pytest.raises(CommandError) as error:
        load(content)
    message = str(error.value)
    assert message.startswith("Nothing was loaded.")
    assert "releases/2024-09-23.toml:" in message and "release 2024-09-23 disagrees" in message
    assert "section 2.3, paragraph 'example-b': its en text" in message
    assert "--replace-release 2024-09-23" in message
    # Nothing was loaded: neither the release nor the working text.
    assert Section.objects.get(number="2.4").penalty == "warning"
    assert OLD_EN in section_text(client, "/en/ipg/2.3/?release=2024-09-23")


def test_a_release_file_that_agrees_loads_and_one_named_to_be_replaced_replaces_it(ipg, client, content):
    # The near miss: a title and an announcement may be added to a published release; its text may not.
    edit_file(
        content / "releases" / "2024-09-23.toml",
        'date = "2024-09-23"\n',
        'date = "2024-09-23"\n\n[title]\nen = "TEST title"\n',
    )
    load(content)
    assert Release.objects.get(date=FIRST).title_en == "TEST title"

    edit_file(content / "releases" / "2024-09-23.toml", OLD_EN, NEW_EN)
    with pytest.raises(CommandError, match="not a date"):
        load(content, "--replace-release", "2024-9-23")
    with pytest.raises(CommandError, match="does not exist"):
        load(content, "--replace-release", "2023-01-01")
    with pytest.raises(CommandError, match="disagrees"):
        load(content)
    load(content, "--replace-release", "2024-09-23")
    released = section_text(client, "/en/ipg/2.3/?release=2024-09-23")
    assert NEW_EN in released and OLD_EN not in released


def long_japanese(seed, sentences=200):
    """About 19,000 characters of made-up Japanese-like test text (kana and a few kanji), in sentences."""
    rng = random.Random(seed)
    kana = "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをん手札公開"
    return "".join(
        "テスト" + "".join(rng.choice(kana) for _ in range(rng.randint(80, 110))) + "。" for _ in range(sentences)
    )


def test_the_changes_page_of_two_long_texts_is_built_from_the_diff_stored_when_publishing(
    ipg, client, django_assert_max_num_queries
):
    old = long_japanese(1)
    new = old[:9000] + "変更" + old[9002:15000] + "追加した文。" + old[15000:]
    assert len(old) > 19_000 and len(new) > 19_000
    write("2.3", "example-b", "ja", old)
    publish(SECOND)
    write("2.3", "example-b", "ja", new)
    publish(datetime.date.fromisoformat(THIRD))

    stored = ChangedSection.objects.get(release__date=THIRD, number="2.3")
    (item,) = stored.changes["items"]
    html = item["cells"]["ja"]["html"]
    # Only what changed is marked, character by character, in a text far too long to compare as a whole.
    assert "".join(re.findall(r"<ins>(.*?)</ins>", html)) == "変更追加した文。"
    assert "".join(re.findall(r"<del>(.*?)</del>", html)) == old[9000:9002]

    # What the page shows is the stored row: change it, and the page shows the change (no diff runs on the request).
    item["cells"]["ja"]["html"] = html.replace("<ins>変更</ins>", "<ins>STORED-DIFF</ins>")
    stored.save()
    with django_assert_max_num_queries(12):
        response = client.get(f"/ja/changes/{THIRD}/")
    assert response.status_code == 200
    ins = [i.text() for i in parse(response.content).find_all("ins")]
    assert "".join(ins) == "STORED-DIFF追加した文。"


def test_a_published_release_page_is_unchanged_by_an_admin_edit_and_stays_cached(ipg, client):
    release_url, working_url = "/en/ipg/2.3/?release=2024-09-23", "/en/ipg/2.3/"
    assert client.get(release_url)["X-Cache"] == "miss"
    assert client.get(working_url)["X-Cache"] == "miss"
    assert client.get("/en/changes/2024-09-23/")["X-Cache"] == "miss"

    staff = client_for(editor())
    p = paragraph("2.3", "example-b")
    url = f"/admin/ipg/paragraph/{p.pk}/change/"
    data = admin_form_data(staff.get(url))
    data["text_en"] = NEW_EN
    assert staff.post(url, data).status_code == 302

    # The working text's page is rendered again; the release's pages are still the ones kept.
    working = client.get(working_url)
    assert working["X-Cache"] == "miss" and NEW_EN in working.content.decode()
    kept = client.get(release_url)
    assert kept["X-Cache"] == "hit" and OLD_EN in kept.content.decode() and NEW_EN not in kept.content.decode()
    assert client.get("/en/changes/2024-09-23/")["X-Cache"] == "hit"
    # And rendered again, from the database, the release still says what it froze.
    from django.core.cache import cache

    cache.clear()
    again = client.get(release_url)
    assert again["X-Cache"] == "miss" and OLD_EN in again.content.decode() and NEW_EN not in again.content.decode()


def test_a_new_release_renders_the_release_pages_again(ipg, client):
    """The near miss of the above: publishing is what makes a release's pages stale (its list, its neighbours)."""
    assert client.get("/en/changes/2024-09-23/")["X-Cache"] == "miss"
    assert client.get("/en/changes/2024-09-23/")["X-Cache"] == "hit"
    publish(SECOND)
    assert client.get("/en/changes/2024-09-23/")["X-Cache"] == "miss"


def test_deleting_a_release_in_the_admin_records_the_next_ones_changes_since_the_release_before(ipg, client):
    write("2.3", "example-b", "en", NEW_EN)
    publish(SECOND)
    write("2.3", "example-a", "en", "TEST an edited example A, made up for this test.")
    publish(datetime.date.fromisoformat(THIRD))

    def keys():
        page = parse(client.get(f"/en/changes/{THIRD}/").content)
        return [change.find("code").text() for change in page.find_all("div", class_="change")]

    assert keys() == ["example-a"]

    staff = client_for(editor())
    second = Release.objects.get(date=SECOND)
    response = staff.post(f"/admin/releases/release/{second.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    # Now the release of THIRD follows the first: both edits are what it changed, and its page is not the old copy.
    assert keys() == ["example-a", "example-b"]
