"""A finder question's wording is translated like a paragraph: rights, lost updates, history and statuses."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from ipgsite.editing import writing
from ipgsite.editing.models import Change, State, Status
from ipgsite.finder.models import Question
from people import client_for, editor, translator


def question(key="trigger"):
    return Question.objects.get(key=key)


def state(key, code):
    return Status.objects.get(question__key=key, language=code).state


def test_every_question_has_a_status_per_language_after_the_load(ipg):
    assert Status.objects.of_model(Question).count() == 3 * Question.objects.count()
    assert set(Status.objects.of_model(Question).values_list("state", flat=True)) == {State.TRANSLATED}


def test_a_translator_rewords_a_question_in_their_language_with_history(ipg):
    ja = translator("ja")
    q = question()
    opened = q.revision
    assert writing.write_text(q, "ja", "誘発型能力が関わっていますか?", by=ja, base_revision=opened)
    q.refresh_from_db()
    assert q.text_ja == "誘発型能力が関わっていますか?" and q.revision == opened + 1
    change = Change.objects.of(q).first()
    assert (change.user, change.field, change.language, change.after) == (ja, "text", "ja", q.text_ja)
    assert change.before == "その誤りは、誘発型能力か、英雄譚の伝承カウンターに関わるものですか?"
    assert state("trigger", "ja") == State.TRANSLATED


def test_a_translator_may_not_word_another_language(ipg):
    q = question()
    with pytest.raises(PermissionDenied):
        writing.write_text(q, "zh-hans", "改写", by=translator("ja"), base_revision=q.revision)
    assert question().text_zh_hans == "此失误是否与触发式异能或史诗的传奇指示物有关?"
    assert not Change.objects.of(q).exclude(user=None).exists()


def test_the_second_of_two_concurrent_edits_is_refused(ipg):
    q = question()
    opened = q.revision
    writing.write_text(q, "en", "Does a triggered ability come into it?", by=editor(), base_revision=opened)
    with pytest.raises(writing.Conflict) as conflict:
        writing.write_text(question(), "en", "Is a trigger involved?", by=translator("en"), base_revision=opened)
    assert conflict.value.theirs == "Does a triggered ability come into it?"
    assert question().text_en == "Does a triggered ability come into it?"


def test_an_english_edit_outdates_the_translations_until_they_are_reworded(ipg):
    q = question()
    writing.write_text(q, "en", "Does a triggered ability come into it?", by=editor(), base_revision=q.revision)
    assert (state("trigger", "zh-hans"), state("trigger", "ja")) == (State.OUTDATED, State.OUTDATED)
    q = question()
    writing.write_text(q, "ja", "誘発型能力が関わっていますか?", by=translator("ja"), base_revision=q.revision)
    assert (state("trigger", "zh-hans"), state("trigger", "ja")) == (State.OUTDATED, State.TRANSLATED)


def test_answers_are_one_line_each_as_many_as_the_question_has(ipg):
    q = question()
    ja = translator("ja")
    with pytest.raises(ValidationError):
        writing.write_text(q, "ja", "はい\nいいえ", by=ja, base_revision=q.revision, field="answers")
    with pytest.raises(ValidationError):
        writing.write_text(q, "ja", "はい\n\nいいえ", by=ja, base_revision=q.revision, field="answers")
    answers = "はい(忘れた)\nはい(影響なし)\nはい(伝承カウンター)\nいいえ\n示した"
    assert writing.write_text(q, "ja", answers, by=ja, base_revision=q.revision, field="answers")
    assert question().answers_in("ja") == ["はい(忘れた)", "はい(影響なし)", "はい(伝承カウンター)", "いいえ", "示した"]


def test_a_question_saved_outside_the_write_path_is_refused(ipg):
    q = question()
    q.text_en = "Sneaked in"
    with pytest.raises(writing.OutsideTheWritePath):
        q.save()


def test_a_translator_in_the_admin_words_their_language_only(ipg):
    ja = translator("ja")
    client = client_for(ja)
    q = question()
    url = f"/admin/finder/question/{q.pk}/change/"
    page = client.get(url)
    assert page.status_code == 200
    data = {
        "text_ja": "誘発型能力が関わっていますか?",
        "answers_ja": q.answers_ja,
        "base_revision": q.revision,
    }
    assert client.post(url, data).status_code == 302
    assert question().text_ja == "誘発型能力が関わっていますか?"
    # the crafted post: another language's column is refused, and nothing of it is stored
    crafted = {**data, "text_zh_hans": "改写", "base_revision": question().revision}
    assert client.post(url, crafted).status_code == 403
    assert question().text_zh_hans == "此失误是否与触发式异能或史诗的传奇指示物有关?"


def test_a_change_to_a_question_is_reverted_from_its_history_as_a_change_of_its_own(ipg):
    ja = translator("ja")
    q = question()
    before = q.text_ja
    writing.write_text(q, "ja", "誘発型能力が関わっていますか?", by=ja, base_revision=q.revision)
    change = Change.objects.of(q).first()
    client = client_for(ja)
    page = client.get(f"/admin/finder/question/{q.pk}/change/").content.decode()
    assert f'formaction="/admin/translate/changes/{change.pk}/revert/"' in page
    response = client.post(f"/admin/translate/changes/{change.pk}/revert/")
    assert response.status_code == 302 and response["Location"] == f"/admin/finder/question/{q.pk}/change/"
    assert question().text_ja == before
    revert = Change.objects.of(q).first()
    assert (revert.reverts, revert.user, revert.before, revert.after) == (change, ja, change.after, before)
    assert state(q.key, "ja") == State.TRANSLATED
    # The near miss: reverting a Chinese change needs the Chinese right, judged by the change's language.
    writing.write_text(question(), "zh-hans", "改写(测试)", by=editor(), base_revision=question().revision)
    chinese = Change.objects.of(q).first()
    assert client.post(f"/admin/translate/changes/{chinese.pk}/revert/").status_code == 403
    assert question().text_zh_hans == "改写(测试)"


def test_the_dashboard_counts_the_finders_questions_by_status_and_links_to_them(ipg):
    q = question()
    writing.write_text(q, "en", "Does a triggered ability come into it?", by=editor(), base_revision=q.revision)
    client = client_for(translator("ja"))
    html = client.get("/admin/translate/").content.decode()
    table = html[html.index('class="tr-table finder-wording"') :]
    table = table[: table.index("</table>")]
    outdated = table.count('tr-state-outdated"><span class="tr-state-label">outdated</span> <span class="tr-count">1<')
    assert outdated == 2  # the Chinese and the Japanese wording of the question whose English changed
    assert "/admin/finder/question/" in html
    assert client.get("/admin/finder/question/").status_code == 200


@pytest.mark.parametrize(
    ("cites", "message"),
    [
        ('["2.3#definition-9"]', "2.3#definition-9: section 2.3 has no paragraph with this key."),
        ('["2.3 definition-1"]', "2.3 definition-1 is no paragraph: write a section and a key"),
        ('"2.3#definition-1"', "Cites is a list of paragraphs"),
    ],
)
def test_an_editor_citing_no_paragraph_in_the_admin_gets_an_error_on_the_field(ipg, cites, message):
    from forms import form_fields

    client = client_for(editor())
    q = question("public-information")
    url = f"/admin/finder/question/{q.pk}/change/"
    fields = dict(form_fields(client.get(url).content.decode(), "question_form"))
    assert client.post(url, {**fields, "cites": '["2.3#definition-1", "2.3#philosophy-3"]'}).status_code == 302
    response = client.post(url, {**fields, "cites": cites, "base_revision": question("public-information").revision})
    assert response.status_code == 200 and message in response.content.decode()  # the form again, with the error
    assert question("public-information").cites == ["2.3#definition-1", "2.3#philosophy-3"]
