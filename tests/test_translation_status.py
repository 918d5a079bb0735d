"""Status per paragraph and language: missing < outdated < translated < reviewed; the dashboard."""

import pytest

from ipgsite.editing.models import Change, State, Status
from people import MANAGEMENT_FORM, client_for, editor, paragraph, translate_form, translate_url, translator

pytestmark = pytest.mark.database  # statuses are created with ON CONFLICT DO NOTHING and locked with select_for_update


def state(number, key, code):
    return Status.objects.get(paragraph=paragraph(number, key), language=code).state


def edit_english(client, number, key, text, minor=False):
    form = translate_form(client, number, "en")
    form.update({f"p-{key}-text": text, "save": f"p-{key}"})
    if minor:
        form[f"p-{key}-minor"] = "on"
    response = client.post(translate_url(number, "en"), form)
    assert response.status_code == 302, response.content.decode()[:2000]


def test_the_states_are_ordered():
    assert State.MISSING < State.OUTDATED < State.TRANSLATED < State.REVIEWED


def test_loaded_content_starts_translated_or_missing(ipg):
    assert state("2.3", "example-c", "ja") == State.TRANSLATED
    assert state("2.4", "definition-1", "zh-hans") == State.TRANSLATED
    assert state("2.4", "definition-2", "zh-hans") == State.MISSING
    assert Status.objects.in_language("ja").in_section(ipg.get(number="2.4")).needing_work().count() == 11


def test_an_english_edit_outdates_translations_and_shows_the_diff(ipg):
    staff = client_for(editor())
    edit_english(staff, "2.3", "example-b", "A player scries three cards when they should only have scried one.")
    assert state("2.3", "example-b", "ja") == State.OUTDATED
    assert state("2.3", "example-b", "zh-hans") == State.OUTDATED
    assert state("2.3", "example-b", "en") == State.TRANSLATED  # the source is never outdated
    assert state("2.3", "example-a", "ja") == State.TRANSLATED

    page = client_for(translator("ja")).get(translate_url("2.3", "ja")).content.decode()
    row = page[page.index('id="example-b"') : page.index('id="example-c"')]
    assert "outdated" in row
    assert "<del>two</del><ins>three</ins>" in row


def test_reverting_the_english_clears_the_outdated_mark(ipg):
    staff = client_for(editor())
    original = paragraph("2.3", "example-d").text_en
    edit_english(staff, "2.3", "example-d", "A player has fewer cards in their hand than can be accounted for.")
    assert state("2.3", "example-d", "ja") == State.OUTDATED
    change = Change.objects.filter(paragraph=paragraph("2.3", "example-d"), language="en").latest("pk")
    assert staff.post(f"/admin/translate/changes/{change.pk}/revert/").status_code == 302
    assert paragraph("2.3", "example-d").text_en == original
    assert state("2.3", "example-d", "ja") == State.TRANSLATED
    assert state("2.3", "example-d", "zh-hans") == State.TRANSLATED

    # Editing it back by hand does the same.
    edit_english(staff, "2.3", "example-d", "A player has fewer cards in their hand than can be accounted for.")
    edit_english(staff, "2.3", "example-d", original)
    assert state("2.3", "example-d", "ja") == State.TRANSLATED


def test_a_minor_english_edit_keeps_translations_current(ipg):
    staff = client_for(editor())
    edit_english(
        staff,
        "2.3",
        "example-e",
        "A player casts Anticipate and picks up the top four cards of their library!",
        minor=True,
    )
    assert state("2.3", "example-e", "ja") == State.TRANSLATED
    assert state("2.3", "example-e", "zh-hans") == State.TRANSLATED
    assert Change.objects.filter(paragraph=paragraph("2.3", "example-e"), language="en").latest("pk").minor
    # A missing translation stays missing, and an outdated one stays outdated.
    edit_english(staff, "2.4", "definition-2", paragraph("2.4", "definition-2").text_en + " (1)", minor=True)
    assert state("2.4", "definition-2", "zh-hans") == State.MISSING
    edit_english(staff, "2.3", "example-f", "A player, going first, draws a card for their turn.")
    edit_english(staff, "2.3", "example-f", "A player, going first, draws one card for their turn.", minor=True)
    assert state("2.3", "example-f", "ja") == State.OUTDATED


def test_confirming_or_retranslating_makes_an_outdated_translation_current(ipg):
    staff = client_for(editor())
    edit_english(
        staff,
        "2.3",
        "remedy-2",
        "If the set of cards that contained the problem no longer exists, no remedy is applied.",
    )
    ja = client_for(translator("ja"))
    form = translate_form(ja, "2.3", "ja")
    response = ja.post(translate_url("2.3", "ja"), {**form, "confirm": "p-remedy-2"})
    assert response.status_code == 302 and response["Location"].endswith("#remedy-2")
    assert state("2.3", "remedy-2", "ja") == State.TRANSLATED

    zh = client_for(translator("zh-hans"))
    form = translate_form(zh, "2.3", "zh-hans")
    form.update({"p-remedy-2-text": "（测试）重新翻译。", "save": "p-remedy-2"})
    assert zh.post(translate_url("2.3", "zh-hans"), form).status_code == 302
    assert state("2.3", "remedy-2", "zh-hans") == State.TRANSLATED


def test_review_by_someone_other_than_the_translator(ipg):
    first, second = translator("ja", "first"), translator("ja", "second")
    form = translate_form(client_for(first), "2.4", "ja")
    form.update({"p-example-a-text": "（試験）訳文。", "save": "p-example-a"})
    assert client_for(first).post(translate_url("2.4", "ja"), form).status_code == 302
    assert state("2.4", "example-a", "ja") == State.TRANSLATED

    response = client_for(first).post(
        translate_url("2.4", "ja"), {**MANAGEMENT_FORM, "review": "p-example-a"}, follow=True
    )
    assert "Someone other than its translator" in response.content.decode()
    assert state("2.4", "example-a", "ja") == State.TRANSLATED
    client_for(second).post(translate_url("2.4", "ja"), {**MANAGEMENT_FORM, "review": "p-example-a"})
    assert state("2.4", "example-a", "ja") == State.REVIEWED

    # Any change to the text makes it an unreviewed translation again.
    form = translate_form(client_for(second), "2.4", "ja")
    form.update({"p-example-a-text": "（試験）訳文を直した。", "save": "p-example-a"})
    client_for(second).post(translate_url("2.4", "ja"), form)
    assert state("2.4", "example-a", "ja") == State.TRANSLATED


def test_the_dashboard_counts_and_links_to_the_next_paragraph_needing_work(ipg):
    ja = client_for(translator("ja"))
    response = ja.get("/admin/translate/")
    rows = {section.number: cells for section, cells in response.context["rows"]}
    assert list(rows) == ["2.1", "2.3", "2.4"]
    ja_24 = next(cell for cell in rows["2.4"] if cell.code == "ja")
    zh_24 = next(cell for cell in rows["2.4"] if cell.code == "zh-hans")
    assert dict(ja_24.by_state) == {State.MISSING: 11, State.OUTDATED: 0, State.TRANSLATED: 0, State.REVIEWED: 0}
    assert dict(zh_24.by_state)[State.TRANSLATED] == 5 and dict(zh_24.by_state)[State.MISSING] == 6
    html = response.content.decode()
    assert 'href="/admin/translate/2.4/ja/#definition-1"' in html

    form = translate_form(ja, "2.4", "ja")
    form.update({"p-definition-1-text": "（試験）訳文。", "save": "p-definition-1"})
    ja.post(translate_url("2.4", "ja"), form)
    html = ja.get("/admin/translate/").content.decode()
    assert 'href="/admin/translate/2.4/ja/#definition-2"' in html


def test_an_english_change_loaded_from_content_files_outdates_translations(ipg, tmp_path):
    from django.core.management import call_command

    from people import CONTENT

    (tmp_path / "sections").mkdir()
    (tmp_path / "chapters.toml").write_bytes((CONTENT / "chapters.toml").read_bytes())
    for path in (CONTENT / "sections").glob("*.toml"):
        text = path.read_text(encoding="utf-8")
        if path.stem == "2.3":
            text = text.replace(
                "A player draws four cards after casting Ancestral Recall.",
                "A player draws five cards after casting Ancestral Recall.",
            )
        (tmp_path / "sections" / path.name).write_text(text, encoding="utf-8")
    call_command("loadcontent", str(tmp_path), verbosity=0)
    assert state("2.3", "example-a", "ja") == State.OUTDATED
    assert state("2.3", "example-b", "ja") == State.TRANSLATED
    call_command("loadcontent", verbosity=0)  # content/ again: the English as the translations knew it
    assert state("2.3", "example-a", "ja") == State.TRANSLATED
