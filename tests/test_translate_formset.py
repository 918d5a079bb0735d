"""The translate page's formset: fields named after their items, and crafted posts answered clearly, never a 500."""

from ipgsite.editing.models import Change, State, Status
from people import MANAGEMENT_FORM, client_for, editor, paragraph, translate_form, translate_url, translator

URL = translate_url("2.4", "ja")


def ja_client():
    return client_for(translator("ja"))


def nothing_saved():
    return not Change.objects.filter(user__username="translator-ja").exists()


def test_the_page_names_each_field_after_its_item_and_carries_a_management_form(ipg):
    client = ja_client()
    html = client.get(URL).content.decode()
    form = translate_form(client, "2.4", "ja")
    section = paragraph("2.4", "definition-1").section
    items = section.paragraphs.count() + sum(p.notes.count() for p in section.paragraphs.all())
    assert form["items-TOTAL_FORMS"] == form["items-INITIAL_FORMS"] == str(items)
    assert '<label class="tr-label" for="id_p-definition-1-text">' in html
    assert 'id="id_p-definition-1-text" name="p-definition-1-text"' in html
    assert form["p-definition-1-revision"] == str(paragraph("2.4", "definition-1").revision)
    assert form["p-definition-1-text"] == ""  # missing in Japanese
    assert not any(name.startswith(("text-", "revision-", "minor-")) for name in form)
    assert "-minor" not in html  # offered only to editors, only on English
    assert 'name="p-example-b-minor"' in client_for(editor()).get(translate_url("2.3", "en")).content.decode()


def test_the_normal_path_saves_a_paragraph_and_a_note_together(ipg):
    client = ja_client()
    note = paragraph("2.3", "example-c").notes.get()
    form = translate_form(client, "2.3", "ja")
    form.update({"p-example-a-text": "（試験）段落。", f"n-{note.pk}-text": "（試験）注。", "save": "*"})
    response = client.post(translate_url("2.3", "ja"), form)
    assert response.status_code == 302
    note.refresh_from_db()
    assert paragraph("2.3", "example-a").text_ja == "（試験）段落。" and note.body_ja == "（試験）注。"
    assert Change.objects.filter(user__username="translator-ja").count() == 2
    assert (
        Status.objects.get(paragraph=paragraph("2.3", "example-a"), language="ja").confirmed_by.username
        == "translator-ja"
    )


def test_save_all_reloads_what_it_saved_beside_a_conflict(ipg):
    first, second = client_for(translator("ja", "first")), client_for(translator("ja", "second"))
    stale = translate_form(second, "2.4", "ja")
    form = translate_form(first, "2.4", "ja")
    form.update({"p-remedy-2-text": "（試験）先に保存。", "save": "p-remedy-2"})
    assert first.post(URL, form).status_code == 302

    stale.update({"p-remedy-2-text": "（試験）後から。", "p-remedy-3-text": "（試験）別の段落。", "save": "*"})
    response = second.post(URL, stale)
    assert response.status_code == 409
    assert paragraph("2.4", "remedy-2").text_ja == "（試験）先に保存。"
    assert paragraph("2.4", "remedy-3").text_ja == "（試験）別の段落。"
    html = response.content.decode()
    row = html[html.index('id="remedy-3"') : html.index("</section>", html.index('id="remedy-3"'))]
    assert "tr-state-translated" in row  # the status the batch set, read after it ran
    assert f'name="p-remedy-3-revision" value="{paragraph("2.4", "remedy-3").revision}"' in row
    assert ">（試験）後から。</textarea>" in html


def test_a_post_without_its_management_form_saves_nothing_and_keeps_the_text(ipg):
    client = ja_client()
    form = translate_form(client, "2.4", "ja")
    del form["items-TOTAL_FORMS"], form["items-INITIAL_FORMS"]
    form.update({"p-definition-1-text": "（試験）保存されない。", "save": "*"})
    response = client.post(URL, form)
    assert response.status_code == 400
    html = response.content.decode()
    assert "The form arrived incomplete" in html and "items-TOTAL_FORMS" in html
    assert ">（試験）保存されない。</textarea>" in html  # nothing typed is lost
    assert not paragraph("2.4", "definition-1").text_ja and nothing_saved()


def test_a_review_without_the_management_form_changes_no_status(ipg):
    zh = client_for(translator("zh-hans"))
    assert Status.objects.get(paragraph=paragraph("2.4", "definition-1"), language="zh-hans").state == State.TRANSLATED
    assert zh.post(translate_url("2.4", "zh-hans"), {"review": "p-definition-1"}).status_code == 400
    assert Status.objects.get(paragraph=paragraph("2.4", "definition-1"), language="zh-hans").state == State.TRANSLATED
    response = zh.post(translate_url("2.4", "zh-hans"), {**MANAGEMENT_FORM, "review": "p-definition-1"})
    assert response.status_code == 302
    assert Status.objects.get(paragraph=paragraph("2.4", "definition-1"), language="zh-hans").state == State.REVIEWED


def test_a_garbled_management_form_saves_nothing(ipg):
    client = ja_client()
    for garbled in ({"items-TOTAL_FORMS": "x"}, {"items-INITIAL_FORMS": ""}, {"items-TOTAL_FORMS": "99999999"}):
        form = translate_form(client, "2.4", "ja")
        form.update({**garbled, "p-definition-1-text": "（試験）保存されない。", "save": "p-definition-1"})
        response = client.post(URL, form)
        assert response.status_code == 400, garbled
    assert not paragraph("2.4", "definition-1").text_ja and nothing_saved()


def test_a_management_form_counting_other_items_is_not_needed_to_match(ipg):
    # An editor may add a note while the page is open: the names say what was posted, not the count.
    client = ja_client()
    form = translate_form(client, "2.4", "ja")
    form.update({"items-TOTAL_FORMS": "3", "p-definition-1-text": "（試験）保存する。", "save": "p-definition-1"})
    assert client.post(URL, form).status_code == 302
    assert paragraph("2.4", "definition-1").text_ja == "（試験）保存する。"


def test_a_revision_that_is_not_a_number_is_a_form_error_on_its_item_only(ipg):
    client = ja_client()
    form = translate_form(client, "2.4", "ja")
    form.update(
        {
            "p-example-a-text": "（試験）保存する。",
            "p-example-b-text": "（試験）保存されない。",
            "p-example-b-revision": "not-a-number",
            "save": "*",
        }
    )
    response = client.post(URL, form)
    assert response.status_code == 200
    html = response.content.decode()
    row = html[html.index('id="example-b"') : html.index("</section>", html.index('id="example-b"'))]
    assert "reload the page" in row and 'aria-invalid="true"' in row
    assert ">（試験）保存されない。</textarea>" in row
    assert paragraph("2.4", "example-a").text_ja == "（試験）保存する。"
    assert not paragraph("2.4", "example-b").text_ja


def test_an_unknown_item_as_target_is_a_404_and_saves_nothing(ipg):
    client = ja_client()
    note = paragraph("2.3", "example-c").notes.get()
    for action, target in (
        ("save", "p-no-such-key"),
        ("preview", f"n-{note.pk}"),
        ("confirm", "n-abc"),
        ("review", "*"),
    ):
        form = translate_form(client, "2.4", "ja")
        form.update({"p-definition-1-text": "（試験）保存されない。", action: target})
        assert client.post(URL, form).status_code == 404, (action, target)
    assert not paragraph("2.4", "definition-1").text_ja and nothing_saved()


def test_an_item_that_is_not_on_the_page_is_refused_and_nothing_is_saved(ipg):
    client = ja_client()
    note = paragraph("2.3", "example-c").notes.get()  # another section's note
    before = note.body_ja
    form = translate_form(client, "2.4", "ja")
    form.update(
        {
            f"n-{note.pk}-text": "（試験）よその注。",
            f"n-{note.pk}-revision": str(note.revision),
            "p-definition-1-text": "（試験）保存されない。",
            "save": "*",
        }
    )
    response = client.post(URL, form)
    assert response.status_code == 400
    html = response.content.decode()
    assert f"This text is not on this page (deleted or moved since you opened it?): n-{note.pk}." in html
    assert ">（試験）保存されない。</textarea>" in html
    note.refresh_from_db()
    assert note.body_ja == before and not paragraph("2.4", "definition-1").text_ja and nothing_saved()
    # A paragraph of another section, by key, is no better.
    response = client.post(
        URL, {**MANAGEMENT_FORM, "p-no-such-key-text": "x", "p-no-such-key-revision": "1", "save": "*"}
    )
    assert response.status_code == 400 and nothing_saved()


def test_a_crafted_minor_flag_is_refused_on_a_note_too_and_ignored_off_english(ipg):
    en = client_for(translator("en"))
    note = paragraph("2.3", "example-c").notes.get()
    form = translate_form(en, "2.3", "en")
    form.update({f"n-{note.pk}-minor": "on", "save": "*"})
    assert en.post(translate_url("2.3", "en"), form).status_code == 403
    client = ja_client()
    form = translate_form(client, "2.4", "ja")
    form.update({"p-definition-1-text": "（試験）訳。", "p-definition-1-minor": "on", "save": "p-definition-1"})
    assert client.post(URL, form).status_code == 302  # only English edits can be minor: the flag means nothing here
    assert not Change.objects.get(user__username="translator-ja").minor
    assert Status.objects.get(paragraph=paragraph("2.4", "definition-1"), language="ja").state == State.TRANSLATED


def test_preview_keeps_the_text_in_its_field(ipg):
    client = ja_client()
    form = translate_form(client, "2.4", "ja")
    form.update({"p-definition-1-text": "（試験）**太字**", "preview": "p-definition-1"})
    response = client.post(URL, form)
    assert response.status_code == 200
    html = response.content.decode()
    assert ">（試験）**太字**</textarea>" in html and "<strong>太字</strong>" in html
    assert not paragraph("2.4", "definition-1").text_ja
