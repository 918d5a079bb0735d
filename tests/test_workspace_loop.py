"""Notes counted and translated like paragraphs; "Save and next" across sections; the status filter; the shortcuts."""

from edits import add_note
from ipgsite.editing.models import State, Status
from ipgsite.ipg.models import Note, Section
from people import (
    MANAGEMENT_FORM,
    FormFields,
    client_for,
    paragraph,
    person,
    translate_form,
    translate_url,
    translator,
)


def note_state(note, code):
    return Status.of_notes.get(note=note, language=code).state


def japanese_notes_in(number):
    return Note.objects.filter(paragraph__section__number=number, language="ja").order_by("paragraph__order", "order")


def test_a_japanese_note_is_missing_in_english_and_chinese_until_translated(ipg):
    note = japanese_notes_in("2.3").first()
    assert note_state(note, "ja") == State.TRANSLATED
    assert note_state(note, "en") == State.MISSING and note_state(note, "zh-hans") == State.MISSING
    client = client_for(translator("zh-hans"))
    form = translate_form(client, "2.3", "zh-hans")
    form.update({f"n-{note.pk}-text": "一条注释的中文译文。", "save": f"n-{note.pk}"})
    response = client.post(translate_url("2.3", "zh-hans"), form)
    assert response.status_code == 302 and response.url.endswith(f"#note-{note.pk}")
    assert note_state(note, "zh-hans") == State.TRANSLATED and note_state(note, "en") == State.MISSING
    # The original changes: the translation is outdated, with the change shown, until confirmed.
    ja_client = client_for(translator("ja"))
    form = translate_form(ja_client, "2.3", "ja")
    form.update({f"n-{note.pk}-text": note.body_in("ja") + "追記。", "save": f"n-{note.pk}"})
    assert ja_client.post(translate_url("2.3", "ja"), form).status_code == 302
    assert note_state(note, "zh-hans") == State.OUTDATED
    page = client.get(translate_url("2.3", "zh-hans")).content.decode()
    # The original it follows is the one the release of 2024-09-23 holds: the page names it.
    assert "original in the release of 2024-09-23; the original has changed since:" in page
    assert "<ins>追記" in page
    form = translate_form(client, "2.3", "zh-hans")
    form["confirm"] = f"n-{note.pk}"
    assert client.post(translate_url("2.3", "zh-hans"), form).status_code == 302
    assert note_state(note, "zh-hans") == State.TRANSLATED


def test_the_dashboard_counts_notes_by_status_beside_paragraphs(ipg):
    notes = japanese_notes_in("2.3").count()
    assert notes > 0
    response = client_for(translator("en")).get("/admin/translate/")
    section = Section.objects.get(number="2.3")
    cell = next(cells for s, cells in response.context["rows"] if s == section)
    by_code = {c.code: c for c in cell}
    assert by_code["en"].note_counts[State.MISSING] == notes
    assert by_code["ja"].note_counts[State.TRANSLATED] == notes and by_code["ja"].note_counts[State.MISSING] == 0
    # One count per cell: the paragraphs and notes needing work, here English's 2.3 notes, all missing.
    assert by_code["en"].needs_work == notes and by_code["en"].missing == notes and by_code["en"].outdated == 0
    html = response.content.decode()
    assert f'<span class="tr-count">{notes}</span>' in html
    # English's next needing work in 2.3 is the first paragraph or note missing in English, in reading order.
    first = Status.everything.in_language("en").needing_work().in_reading_order().select_related("paragraph")
    first = first.filter(paragraph__section=section).first()
    assert by_code["en"].next_key == (f"note-{first.note_id}" if first.note_id else first.paragraph.key)


def test_the_next_needing_work_covers_notes(ipg):
    # 2.3 has every paragraph in English, but not its Japanese notes: English's next in 2.3 is a note.
    response = client_for(translator("en")).get("/admin/translate/")
    section = Section.objects.get(number="2.3")
    cell = next({c.code: c for c in cells} for s, cells in response.context["rows"] if s == section)
    first_note = japanese_notes_in("2.3").first()
    assert cell["en"].next_key == f"note-{first_note.pk}"
    assert f'href="/admin/translate/2.3/en/#note-{first_note.pk}"' in response.content.decode()
    # Save and next from the paragraph before it goes to it.
    client = client_for(translator("en", "en-2"))
    response = save_and_next(client, "2.3", "en", f"p-{first_note.paragraph.key}", first_note.paragraph.text_in("en"))
    assert response.url == f"/admin/translate/2.3/en/#note-{first_note.pk}"


def save_and_next(client, number, code, name, text):
    form = translate_form(client, number, code)
    form.update({f"{name}-text": text, "save_next": name})
    return client.post(translate_url(number, code), form)


def test_save_and_next_goes_to_the_next_text_needing_work_across_sections(ipg):
    client = client_for(translator("ja"))
    needing = list(
        Status.everything.of_paragraphs()
        .in_language("ja")
        .needing_work()
        .in_reading_order()
        .select_related("paragraph__section")
    )
    # 2.3's remedy-5 and upgrade-1, then 2.4
    assert [s.paragraph.section.number for s in needing][:3] == ["2.3", "2.3", "2.4"]
    response = save_and_next(client, "2.4", "ja", "p-definition-1", "定義の訳文。")
    assert response.status_code == 302 and response.url == "/admin/translate/2.4/ja/#definition-2"
    assert paragraph("2.4", "definition-1").text_in("ja") == "定義の訳文。"
    response = save_and_next(client, "2.4", "ja", "p-remedy-3", "訳文。")  # the last of 2.4: wraps to the start
    assert response.url == "/admin/translate/2.3/ja/#remedy-5"
    # A text the translator saved from the middle of a section: the next one after it, not before it.
    response = save_and_next(client, "2.4", "ja", "p-example-c", "例の訳文。")
    assert response.url == "/admin/translate/2.4/ja/#example-d"


def test_save_and_next_stays_in_the_translators_languages(ipg):
    both = person("both", "translators-ja", "translators-zh-hans")
    client = client_for(both)
    # After the last paragraph of 2.4 in Japanese: the same paragraph in their other language, still missing.
    response = save_and_next(client, "2.4", "ja", "p-remedy-3", "訳文。")
    assert response.url == "/admin/translate/2.4/zh-hans/#remedy-3"
    # Nothing in English is ever offered to a translator of Japanese and Chinese, whatever needs work there.
    zh_client = client_for(translator("zh-hans", "zh-only"))
    response = save_and_next(zh_client, "2.4", "zh-hans", "p-definition-2", "中文译文。")
    assert "/zh-hans/" in response.url and "/en/" not in response.url and "/ja/" not in response.url


def test_a_crafted_save_and_next_in_another_language_is_refused(ipg):
    client = client_for(translator("ja"))
    form = {**MANAGEMENT_FORM, "p-definition-1-text": "Overwritten.", "p-definition-1-revision": "0"}
    response = client.post(translate_url("2.4", "en"), {**form, "save_next": "p-definition-1"})
    assert response.status_code == 403
    assert paragraph("2.4", "definition-1").text_in("en") != "Overwritten."


def test_a_crafted_note_post_in_another_language_is_refused(ipg):
    note = japanese_notes_in("2.3").first()
    client = client_for(translator("zh-hans"))
    form = {**MANAGEMENT_FORM, f"n-{note.pk}-text": "Overwritten.", f"n-{note.pk}-revision": str(note.revision)}
    response = client.post(translate_url("2.3", "ja"), {**form, "save_next": f"n-{note.pk}"})
    assert response.status_code == 403
    assert Note.objects.get(pk=note.pk).body_in("ja") == note.body_in("ja")
    # The reverse: the same note's Chinese, which is theirs, is saved.
    form = translate_form(client, "2.3", "zh-hans")
    form.update({f"n-{note.pk}-text": "中文。", "save_next": f"n-{note.pk}"})
    assert client.post(translate_url("2.3", "zh-hans"), form).status_code == 302
    assert Note.objects.get(pk=note.pk).body_in("zh-hans") == "中文。"


def test_the_translate_page_filters_to_one_status(ipg):
    client = client_for(translator("ja"))
    missing = client.get(translate_url("2.4", "ja") + "?status=missing")
    keys = [item.obj.key for item in missing.context["shown"]]
    assert keys and all(paragraph("2.4", key).text_in("ja") == "" for key in keys)
    outdated = client.get(translate_url("2.3", "ja") + "?status=outdated")
    assert [item.obj.key for item in outdated.context["shown"]] == ["remedy-5", "upgrade-1"]
    assert 'id="example-c"' not in outdated.content.decode()
    everything = client.get(translate_url("2.3", "ja") + "?status=nonsense")
    assert everything.status_code == 200 and len(everything.context["shown"]) == len(everything.context["items"])
    none = client.get(translate_url("2.3", "ja") + "?status=missing")
    assert "No text in this section has that status." in none.content.decode()


def test_the_page_lists_its_keyboard_shortcuts(ipg):
    html = client_for(translator("ja")).get(translate_url("2.4", "ja")).content.decode()
    assert "Keyboard shortcuts" in html and "<kbd>Enter</kbd>" in html
    assert "Save and next" in html


def test_a_new_note_gets_statuses_in_every_language(ipg):
    note = add_note("2.4", "example-a", "ja", ja="新しい注釈。")
    assert {s.language: s.state for s in Status.of_notes.filter(note=note)} == {
        "en": State.MISSING,
        "zh-hans": State.MISSING,
        "ja": State.TRANSLATED,
    }


def test_save_and_next_for_a_text_not_on_the_page_is_a_404_and_saves_nothing(ipg):
    client = client_for(translator("ja"))
    form = translate_form(client, "2.4", "ja")
    form.update({"p-definition-1-text": "訳文。", "save_next": "p-no-such-key"})
    assert client.post(translate_url("2.4", "ja"), form).status_code == 404
    assert paragraph("2.4", "definition-1").text_in("ja") == ""


def test_a_note_translation_is_reviewed_by_someone_else_only(ipg):
    note = japanese_notes_in("2.3").first()
    writer, reviewer = translator("zh-hans", "writer"), translator("zh-hans", "reviewer")
    client = client_for(writer)
    form = translate_form(client, "2.3", "zh-hans")
    form.update({f"n-{note.pk}-text": "中文。", "save": f"n-{note.pk}"})
    assert client.post(translate_url("2.3", "zh-hans"), form).status_code == 302
    form = translate_form(client, "2.3", "zh-hans")
    form["review"] = f"n-{note.pk}"
    client.post(translate_url("2.3", "zh-hans"), form)
    assert note_state(note, "zh-hans") == State.TRANSLATED  # its own translator may not
    other = client_for(reviewer)
    form = translate_form(other, "2.3", "zh-hans")
    form["review"] = f"n-{note.pk}"
    assert other.post(translate_url("2.3", "zh-hans"), form).status_code == 302
    assert note_state(note, "zh-hans") == State.REVIEWED


def filtered_form(client, number, code, status):
    """What the translate page filtered to one status posts unchanged: its textareas and hidden inputs."""
    response = client.get(translate_url(number, code) + f"?status={status}")
    assert response.status_code == 200
    fields = FormFields()
    fields.feed(response.content.decode())
    return response, fields.data


def test_the_missing_only_view_shows_only_missing_texts_to_edit(ipg):
    """2.3 in Chinese: every paragraph is translated, the Japanese notes under them are not. The page shows each
    paragraph's text to read, for context, and a field only for each missing note."""
    client = client_for(translator("zh-hans"))
    response, form = filtered_form(client, "2.3", "zh-hans", "missing")
    fields = [name.removesuffix("-text") for name in form if name.endswith("-text")]
    assert fields and all(name.startswith("n-") for name in fields)
    assert all(note_state(Note.objects.get(pk=name[2:]), "zh-hans") == State.MISSING for name in fields)
    html = response.content.decode()
    translated = paragraph("2.3", "definition-1").text_zh_hans
    assert translated in html and 'name="p-definition-1-text"' not in html  # shown, not editable

    # Typing in the first field and saving writes that note, and no paragraph.
    before = {p.pk: (p.text_zh_hans, p.revision) for p in Section.objects.get(number="2.3").paragraphs.all()}
    first = fields[0]
    form.update({f"{first}-text": "（测试）第一个注释的译文。", "save": first})
    assert client.post(translate_url("2.3", "zh-hans"), form).status_code == 302
    assert Note.objects.get(pk=first[2:]).body_in("zh-hans") == "（测试）第一个注释的译文。"
    after = {p.pk: (p.text_zh_hans, p.revision) for p in Section.objects.get(number="2.3").paragraphs.all()}
    assert after == before


def test_a_post_for_a_text_the_filtered_page_did_not_show_is_not_saved(ipg):
    """A page from before the fix (or a crafted post) sends a translated paragraph's field from the missing-only
    view: it is not saved, and the translator's text is kept with the reason."""
    client = client_for(translator("zh-hans"))
    finished = paragraph("2.3", "definition-1")
    post = {
        **MANAGEMENT_FORM,
        "status": "missing",
        "p-definition-1-text": "（测试）以为这里缺译文。",
        "p-definition-1-revision": str(finished.revision),
        "save": "p-definition-1",
    }
    response = client.post(translate_url("2.3", "zh-hans"), post)
    html = response.content.decode()
    assert response.status_code == 200 and "Not saved: this text is translated" in html
    assert ">（测试）以为这里缺译文。</textarea>" in html  # kept in its field
    assert paragraph("2.3", "definition-1").text_zh_hans == finished.text_zh_hans
    assert paragraph("2.3", "definition-1").revision == finished.revision


def test_the_outdated_only_view_shows_only_outdated_texts_to_edit(ipg):
    response, form = filtered_form(client_for(translator("ja")), "2.3", "ja", "outdated")
    fields = [name.removesuffix("-text") for name in form if name.endswith("-text")]
    assert fields == ["p-remedy-5", "p-upgrade-1"]
