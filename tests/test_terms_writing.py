"""Terms are written like paragraphs: translators add their languages' names, editors the rest; rights are judged by
what is stored, edits cannot overwrite each other, and every change has a revision, a history and a status."""

import json

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from ipgsite.editing import writing
from ipgsite.editing.models import Change, State, Status
from ipgsite.ipg.models import Note, Paragraph
from ipgsite.terms.models import Occurrence, Term
from ipgsite.terms.occurrences import refind
from people import admin_form_data, client_for, editor, translator


def term(key):
    return Term.objects.get(key=key)


def state(key, code):
    return Status.objects.get(term__key=key, language=code).state


def test_a_translator_adds_their_languages_name_with_history_and_status(ipg):
    person = translator("ja")
    disguise = term("disguise")
    assert state("disguise", "ja") == State.MISSING
    assert writing.write_text(disguise, "ja", "変装(テスト)", by=person, base_revision=disguise.revision)
    assert term("disguise").name_ja == "変装(テスト)"
    assert term("disguise").revision == disguise.revision + 1
    change = Change.objects.of(disguise).first()
    assert (change.user, change.field, change.language, change.before, change.after) == (
        person,
        "name",
        "ja",
        "",
        "変装(テスト)",
    )
    assert state("disguise", "ja") == State.TRANSLATED


def test_a_translator_may_not_write_another_languages_name_nor_the_structure(ipg):
    person = translator("ja")
    hand = term("hand")
    with pytest.raises(PermissionDenied):
        writing.write_text(hand, "zh-hans", "手(测试)", by=person, base_revision=hand.revision)
    with pytest.raises(PermissionDenied):
        writing.save_structure(hand, {"kind": "card"}, by=person)
    with pytest.raises(PermissionDenied):
        writing.save_structure(Term(key="new-term"), {"kind": "card", "order": 99}, by=person)
    with pytest.raises(PermissionDenied):
        writing.delete(hand, by=person)
    assert term("hand").name_zh_hans == "手牌" and term("hand").kind == "game-term"
    # The allowed case: an editor may.
    assert writing.save_structure(hand, {"kind": "card"}, by=editor()).kind == "card"


def test_an_english_name_change_outdates_the_translations_until_they_are_saved_again(ipg):
    library = term("library")
    writing.write_text(library, "en", "library (test)", by=editor(), base_revision=library.revision)
    assert state("library", "zh-hans") == state("library", "ja") == State.OUTDATED
    library = term("library")
    writing.write_text(library, "ja", "ライブラリー(テスト)", by=translator("ja"), base_revision=library.revision)
    assert state("library", "ja") == State.TRANSLATED and state("library", "zh-hans") == State.OUTDATED


def test_a_lost_update_is_refused_with_both_versions(ipg):
    scry = term("scry")
    opened = scry.revision
    writing.write_text(scry, "zh-hans", "占卜(甲)", by=translator("zh-hans", "first"), base_revision=opened)
    with pytest.raises(writing.Conflict) as conflict:
        writing.write_text(scry, "zh-hans", "占卜(乙)", by=translator("zh-hans", "second"), base_revision=opened)
    assert (conflict.value.theirs, conflict.value.yours) == ("占卜(甲)", "占卜(乙)")
    assert term("scry").name_zh_hans == "占卜(甲)"
    # Another language of the same term is no conflict.
    assert writing.write_text(scry, "ja", "占術(テスト)", by=translator("ja"), base_revision=opened)


@pytest.mark.database  # names are compared case-insensitively (iexact), which SQLite does for ASCII only
def test_names_are_cleaned_and_never_shared(ipg):
    hand, chief = term("hand"), editor()
    with pytest.raises(ValidationError):
        writing.write_text(hand, "en", "hand\nhands", by=chief, base_revision=hand.revision)
    with pytest.raises(ValidationError, match="already the name of the term library"):
        writing.write_text(hand, "en", "LIBRARY", by=chief, base_revision=hand.revision)
    with pytest.raises(ValidationError):
        writing.write_text(hand, "en", "x" * 201, by=chief, base_revision=hand.revision)
    assert writing.write_text(hand, "en", "  hand  ", by=chief, base_revision=hand.revision) is False  # unchanged
    writing.write_text(hand, "en", "hands\n\nhands\n hand ", by=chief, base_revision=hand.revision, field="variants")
    assert term("hand").variants_in("en") == ["hands", "hand"]


def test_terms_change_only_through_the_write_path(ipg):
    hand = term("hand")
    hand.name_en = "changed outside"
    with pytest.raises(writing.OutsideTheWritePath):
        hand.save()


def test_the_admin_lets_a_translator_edit_their_name_and_refuses_another_language(ipg):
    person = translator("ja")
    client = client_for(person)
    disguise = term("disguise")
    url = f"/admin/terms/term/{disguise.pk}/change/"
    page = client.get(url)
    assert page.status_code == 200
    data = admin_form_data(page)
    assert "name_zh_hans" not in data and "kind" not in data  # shown read-only
    data["name_ja"] = "変装(テスト)"
    response = client.post(url, data)
    assert response.status_code == 302
    assert term("disguise").name_ja == "変装(テスト)"
    assert Change.objects.of(disguise).filter(user=person, language="ja").exists()
    # The Chinese name, posted anyway, is refused: rights follow the stored term, not the form.
    data["name_zh_hans"] = "伪装(测试)"
    assert client.post(url, data).status_code == 403
    assert term("disguise").name_zh_hans == "伪装"


def test_the_admin_shows_a_terms_history_and_statuses(ipg):
    client = client_for(editor())
    page = client.get(f"/admin/terms/term/{term('mulligan').pk}/change/").content.decode()
    assert "content files" in page and "再调度" in page
    assert "ja: translated" in page


def test_an_editor_adds_a_term_in_the_admin(ipg):
    client = client_for(editor())
    page = client.get("/admin/terms/term/add/")
    data = admin_form_data(page)
    data.update(
        {
            "key": "test-term",
            "kind": "card",
            "order": "99",
            "name_en": "Zzyzx Test Card",
            "found": json.dumps({}),
            "attested_by_variants": json.dumps([]),
            "not_in": json.dumps({}),
        }
    )
    response = client.post("/admin/terms/term/add/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    created = term("test-term")
    assert created.name_en == "Zzyzx Test Card"
    assert Change.objects.of(created).get().after == "Zzyzx Test Card"
    assert state("test-term", "en") == State.TRANSLATED and state("test-term", "ja") == State.MISSING


def test_a_terms_last_name_cannot_be_removed(ipg):
    trigger = term("missed-trigger")  # named in Japanese only
    with pytest.raises(ValidationError, match="at least one name"):
        writing.write_text(trigger, "ja", "", by=translator("ja"), base_revision=trigger.revision)
    disguise = term("disguise")  # the allowed case: another language keeps a name
    assert writing.write_text(disguise, "zh-hans", "", by=editor(), base_revision=disguise.revision)


@pytest.mark.database  # names are compared case-insensitively (iexact), which SQLite does for ASCII only
def test_the_admin_refuses_a_name_another_term_has_as_an_error_on_the_field(ipg):
    client = client_for(editor())
    hand = term("hand")
    url = f"/admin/terms/term/{hand.pk}/change/"
    data = admin_form_data(client.get(url))
    data.update({"name_en": "Library", "found": json.dumps(hand.found)})
    response = client.post(url, data)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["name_en"] == ["Library is already the name of the term library."]
    assert term("hand").name_en == "hand" and term("hand").revision == hand.revision
    data["name_en"] = "hand in play"  # the near miss: a name no other term has
    assert client.post(url, data).status_code == 302
    assert term("hand").name_en == "hand in play"


@pytest.mark.database  # names are compared case-insensitively (iexact), which SQLite does for ASCII only
def test_the_admin_refuses_a_new_term_named_as_another(ipg):
    client = client_for(editor())
    data = admin_form_data(client.get("/admin/terms/term/add/"))
    data.update({"key": "test-term", "kind": "card", "order": "99", "name_en": "hand", "found": json.dumps({})})
    response = client.post("/admin/terms/term/add/", data)
    assert response.status_code == 200
    assert "already the name of the term hand" in response.context["adminform"].form.errors["name_en"][0]
    assert not Term.objects.filter(key="test-term").exists()


def test_the_admin_refuses_clearing_a_terms_last_name_as_an_error_on_the_field(ipg):
    client = client_for(translator("ja"))
    trigger = term("missed-trigger")  # named in Japanese only
    url = f"/admin/terms/term/{trigger.pk}/change/"
    data = admin_form_data(client.get(url))
    data["name_ja"] = ""
    response = client.post(url, data)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["name_ja"] == [
        "A term keeps at least one name; an editor deletes a term that has none."
    ]
    assert term("missed-trigger").name_ja == trigger.name_ja
    # The near miss: the same save gives it an English name, so the Japanese one may go.
    client = client_for(editor())
    data = admin_form_data(client.get(url))
    data.update({"name_ja": "", "name_en": "Missed Trigger (test)", "found": json.dumps(trigger.found)})
    assert client.post(url, data).status_code == 302
    assert term("missed-trigger").name_ja is None and term("missed-trigger").name_en == "Missed Trigger (test)"


def test_a_translator_confirms_names_after_an_english_change_and_another_reviews_them(ipg):
    library = term("library")
    writing.write_text(library, "en", "library (test)", by=editor(), base_revision=library.revision)
    assert state("library", "ja") == State.OUTDATED
    first, second = translator("ja"), translator("ja", "second-ja")
    url = "/admin/terms/term/"
    response = client_for(first).post(url, {"action": "confirm_ja", "_selected_action": [library.pk]})
    assert response.status_code == 302
    assert state("library", "ja") == State.TRANSLATED
    assert state("library", "zh-hans") == State.OUTDATED  # not the translator's language
    # The translator who confirmed it cannot review it; someone else can.
    client_for(first).post(url, {"action": "review_ja", "_selected_action": [library.pk]})
    assert state("library", "ja") == State.TRANSLATED
    client_for(second).post(url, {"action": "review_ja", "_selected_action": [library.pk]})
    assert state("library", "ja") == State.REVIEWED
    # A Japanese translator has no Chinese actions, and posting one anyway changes nothing.
    response = client_for(first).post(url, {"action": "confirm_zh_hans", "_selected_action": [library.pk]})
    assert state("library", "zh-hans") == State.OUTDATED
    # Any edit makes a reviewed name merely translated again.
    library = term("library")
    writing.write_text(library, "ja", "ライブラリー(テスト)", by=second, base_revision=library.revision)
    assert state("library", "ja") == State.TRANSLATED


def test_a_change_to_a_term_is_reverted_from_its_history_as_a_change_of_its_own(ipg):
    person = translator("zh-hans")
    scry = term("scry")
    writing.write_text(scry, "zh-hans", "占卜(测试)", by=person, base_revision=scry.revision)
    change = Change.objects.of(scry).first()
    client = client_for(person)
    page = client.get(f"/admin/terms/term/{scry.pk}/change/").content.decode()
    assert f'formaction="/admin/translate/changes/{change.pk}/revert/"' in page
    response = client.post(f"/admin/translate/changes/{change.pk}/revert/")
    assert response.status_code == 302 and response["Location"] == f"/admin/terms/term/{scry.pk}/change/"
    assert term("scry").name_zh_hans == "占卜"
    assert Change.objects.of(scry).first().reverts == change
    # Reverting a Japanese change needs the Japanese right, judged by the change's language.
    writing.write_text(scry, "ja", "占術(テスト)", by=editor(), base_revision=term("scry").revision)
    japanese = Change.objects.of(scry).first()
    assert client.post(f"/admin/translate/changes/{japanese.pk}/revert/").status_code == 403
    assert term("scry").name_ja == "占術(テスト)"


def test_a_term_save_rewrites_only_the_occurrences_it_changes(ipg):
    """A save of the Japanese name of one term leaves every other text's occurrences as they were (the same rows),
    so that two saves at once touch few rows; the texts that named the term by its old name lose those."""
    hand = term("hand")
    named = set(Occurrence.objects.filter(term=hand, language="ja").values_list("paragraph_id", "note_id"))
    assert named
    elsewhere = {
        pk
        for pk, code, paragraph_id, note_id in Occurrence.objects.values_list("pk", "language", "paragraph", "note")
        if code != "ja" or (paragraph_id, note_id) not in named
    }
    writing.write_text(hand, "ja", "（試験）手", by=translator("ja"), base_revision=hand.revision)
    assert elsewhere <= set(Occurrence.objects.values_list("pk", flat=True))  # the same rows, untouched
    assert not Occurrence.objects.filter(term=hand, language="ja").exists()
    # Finding the terms again in a text that did not change rewrites nothing.
    rows = set(Occurrence.objects.values_list("pk", flat=True))
    refind(Paragraph.objects.values_list("pk", flat=True), Note.objects.values_list("pk", flat=True))
    assert set(Occurrence.objects.values_list("pk", flat=True)) == rows
