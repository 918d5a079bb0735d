"""Terms in the text of reading pages: the first occurrence in a paragraph, and in a note, is marked; the term's names
in every language are in the page once, in its card; occurrences are stored, found as cross-links are."""

import re

from django.db import connection
from django.test.utils import CaptureQueriesContext

import edits
from ipgsite.editing import writing
from ipgsite.ipg import languages
from ipgsite.ipg.markup import render_markdown
from ipgsite.ipg.models import Note, Paragraph
from ipgsite.terms import lookup
from ipgsite.terms.models import Occurrence, Term
from pages import parse, term_key, term_mark


def page_of(client, url):
    response = client.get(url)
    assert response.status_code == 200
    return parse(response.content.decode())


def row(client, url, key):
    found = page_of(client, url).by_id(key)
    assert found is not None
    return found


def marks(node):
    return [(term_key(a), a.text()) for a in node.find_all("a", class_="term")]


def notes_on(client, url, key):
    """The notes shown after a paragraph (in its folded commentary), each an <aside>."""
    details = row(client, url, key).next_siblings()[0]
    assert details.tag == "details" and "notes" in details.classes
    return details.find_all("aside", class_="note")


def card_names(page, mark):
    """The card a mark opens (static/js/site.js points its aria-controls at it): one per term on the page."""
    card = page.by_id("term-" + term_key(mark))
    return card, {span.attrs["lang"]: span.text() for span in card.find_all("span", class_="term-name")}


def test_a_terms_first_occurrence_in_a_paragraph_is_marked_and_links_to_the_glossary(client, ipg):
    node = row(client, "/en/ipg/2.4/", "example-d")  # "… to not take a mulligan then takes a mulligan after …"
    assert marks(node).count(("mulligan", "mulligan")) == 1
    mark = term_mark(node, "mulligan")
    assert mark.attrs["href"] == "/en/glossary/#mulligan"
    assert "take a mulligan then takes a mulligan" in node.find("div", class_="text").text()  # the text is intact


def test_the_names_in_every_language_are_in_the_page_each_with_its_lang(client, ipg):
    page = page_of(client, "/en/ipg/2.3/")
    mark = term_mark(page.by_id("example-b"), "scry")
    assert mark.text() == "scries"
    assert "aria-controls" not in mark.attrs  # the script points it at the card, which only the script shows
    card, names = card_names(page, mark)
    assert "hidden" in card.attrs and card.attrs["lang"] == "en"
    assert names == {"en": "scry", "zh-Hans": "占卜", "ja": "占術"}


def test_a_mark_in_japanese_offers_english_and_chinese_and_the_definition(client, ipg):
    page = page_of(client, "/ja/ipg/2.3/")
    mark = term_mark(page.by_id("definition-1"), "hidden-set")
    assert mark.text() == "非公開のカード群"
    assert card_names(page, mark)[1] == {"en": "hidden set", "zh-Hans": "非公开牌叠", "ja": "非公開のカード群"}
    mark = term_mark(page.by_id("example-c"), "dark-confidant")
    assert mark.text() == "闇の腹心"
    assert card_names(page, mark)[1] == {"en": "Dark Confidant", "zh-Hans": "黑暗亲信", "ja": "闇の腹心"}


def test_a_term_with_a_defining_paragraph_links_to_it(client, ipg):
    # "…则这不是一个非公开牌张失误。": its own section's name, which is no cross-link
    page = page_of(client, "/zh-hans/ipg/2.3/")
    mark = term_mark(page.by_id("definition-1"), "hidden-card-error")
    card, _ = card_names(page, mark)
    assert card.find("a").attrs["href"] == "/zh-hans/ipg/2.3/#definition-1"
    assert card.attrs["lang"] == "zh-Hans"


def cards_of(page):
    return [card.attrs["id"] for card in page.find_all("p", class_="term-card")]


def test_the_compare_view_marks_each_language_and_has_one_card_per_term(client, ipg):
    page = page_of(client, "/en/ipg/2.3/?langs=en,zh-hans,ja")
    node = page.by_id("example-c")
    assert ("dark-confidant", "Dark Confidant") in marks(node)
    assert ("dark-confidant", "黑暗亲信") in marks(node)
    assert ("dark-confidant", "闇の腹心") in marks(node)
    # The near miss of once per term: once per occurrence, or per language.
    marked = {key for key, _ in marks(page)}
    assert len(marks(page)) > 3 * len(marked)
    assert sorted(cards_of(page)) == sorted(f"term-{key}" for key in marked)


def test_a_section_title_that_is_a_link_is_not_marked_inside(client, ipg):
    node = row(client, "/en/ipg/2.3/", "definition-2")  # "… is Game Play Error — Looking at Extra Cards."
    link = node.find("a", class_="xref")
    assert link is not None and link.find("a", class_="term") is None


def test_occurrences_are_stored_and_follow_an_edit_of_the_text(ipg):
    paragraph = Paragraph.objects.get(section__number="2.4", key="example-c")
    before = set(Occurrence.objects.in_text_of(paragraph).filter(language="en").values_list("term__key", "text"))
    assert ("scry", "scries") in before and ("mulligan", "mulligans") in before and ("hand", "hand") in before
    writing.write_text(
        paragraph,
        "en",
        "A player keeps her hand, then mulligans again.",
        by=writing.CONTENT_FILES,
        base_revision=paragraph.revision,
    )
    after = set(Occurrence.objects.in_text_of(paragraph).filter(language="en").values_list("term__key", "text"))
    assert after == {("hand", "hand"), ("mulligan", "mulligans")}


def test_occurrences_follow_a_new_name_in_every_paragraph(ipg):
    term = Term.objects.get(key="shuffle")
    writing.write_text(term, "zh-hans", "", by=writing.CONTENT_FILES, base_revision=term.revision)
    assert not Occurrence.objects.of_term(term).filter(language="zh-hans").exists()
    term.refresh_from_db()
    writing.write_text(term, "zh-hans", "洗回", by=writing.CONTENT_FILES, base_revision=term.revision)
    found = Occurrence.objects.of_term(term).filter(language="zh-hans")
    assert found.filter(paragraph__section__number="2.3").exists()


def test_reading_the_page_only_reads_the_stored_occurrences(client, ipg):
    with CaptureQueriesContext(connection) as queries:
        client.get("/ja/ipg/2.3/?langs=en,zh-hans,ja")
    occurrence_queries = [q["sql"] for q in queries if "terms_occurrence" in q["sql"]]
    assert len(occurrence_queries) == 1
    assert not [q for q in queries if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))]


def test_an_older_versions_text_is_not_marked(client, ipg):
    from ipgsite.releases.models import Release

    release = Release.objects.order_by("date").first()
    html = client.get(f"/en/ipg/2.3/?release={release.date.isoformat()}").content.decode()
    assert 'class="term"' not in html


# Notes (commentary): marked as paragraphs are, each note on its own, in its own language


def test_a_terms_first_occurrence_in_a_note_is_marked_with_its_names_in_the_other_languages(client, ipg):
    response = client.get("/en/ipg/2.3/")
    page = parse(response.content.decode())
    # The third note on 2.3 definition-1 names ライブラリー three times and 裏向き twice.
    note = page.by_id("definition-1").next_siblings()[0].find_all("aside", class_="note")[2]
    body = note.find("div", class_="note-body")
    assert body.attrs["lang"] == "ja"
    found = marks(body)
    assert found.count(("library", "ライブラリー")) == 1 and found.count(("face-down", "裏向き")) == 1
    assert ("hidden-set", "非公開のカード群") in found and ("hand", "手札") in found
    mark = term_mark(body, "library")
    assert mark.attrs["href"] == "/en/glossary/#library"
    card, names = card_names(page, mark)
    assert names == {"en": "library", "zh-Hans": "牌库", "ja": "ライブラリー"}
    assert "hidden" in card.attrs and card.attrs["lang"] == "en"  # the card's words are the reader's
    assert body.text(skip=("term-cards",)).count("ライブラリー") == 3  # the note's text is intact


def test_each_note_marks_its_own_first_occurrences_and_shares_the_pages_cards(client, ipg):
    page = page_of(client, "/ja/ipg/2.3/")
    notes = page.by_id("definition-1").next_siblings()[0].find_all("aside", class_="note")
    # 対戦相手 is in the first two notes (six times in the second) and in the paragraph itself.
    assert [marks(note).count(("opponent", "対戦相手")) for note in notes[:2]] == [1, 1]
    assert len(cards_of(page)) == len(set(cards_of(page))) == len({key for key, _ in marks(page)})
    assert all(page.by_id(f"term-{key}") is not None for key, _ in marks(page))


def test_a_note_edited_through_the_write_path_is_marked_again(client, ipg):
    note = Note.objects.get(paragraph__section__number="2.3", paragraph__key="definition-1", order=3)
    japanese = set(Occurrence.objects.filter(note=note, language="ja").values_list("term__key", "text", "nth"))
    edits.write_note(note, "en", "The library and the hand are a hidden set. The library is face-down.")
    body = notes_on(client, "/en/ipg/2.3/", "definition-1")[2].find("div", class_="note-body")
    assert body.attrs["lang"] == "en"
    assert marks(body) == [
        ("library", "library"),
        ("hand", "hand"),
        ("hidden-set", "hidden set"),
        ("face-down", "face-down"),
    ]
    page = parse(client.get("/en/ipg/2.3/").content.decode())
    assert card_names(page, body.find("a", class_="term"))[1] == {
        "en": "library",
        "zh-Hans": "牌库",
        "ja": "ライブラリー",
    }

    edits.write_note(Note.objects.get(pk=note.pk), "en", "The library is face-down.")  # hand and hidden set go
    body = notes_on(client, "/en/ipg/2.3/", "definition-1")[2].find("div", class_="note-body")
    assert marks(body) == [("library", "library"), ("face-down", "face-down")]
    stored = Occurrence.objects.filter(note=note, language="en").values_list("term__key", flat=True)
    assert sorted(stored) == ["face-down", "library"]
    assert set(Occurrence.objects.filter(note=note, language="ja").values_list("term__key", "text", "nth")) == japanese


def test_a_note_added_or_deleted_through_the_write_path_is_marked_or_forgotten(client, ipg):
    note = edits.add_note("2.1", "example-a", "en", en="The opponent may reveal their hand.")
    assert {o.paragraph_id for o in Occurrence.objects.filter(note=note)} == {note.paragraph_id}
    bodies = [aside.find("div", class_="note-body") for aside in notes_on(client, "/en/ipg/2.1/", "example-a")]
    added = next(body for body in bodies if "reveal their hand" in body.text())
    assert marks(added) == [("opponent", "opponent"), ("reveal", "reveal"), ("hand", "hand")]
    edits.delete(note)
    assert not Occurrence.objects.filter(note_id=note.pk).exists()
    html = client.get("/en/ipg/2.1/").content.decode()
    assert "reveal their hand" not in html


def test_a_note_moved_to_another_paragraph_takes_its_occurrences_along(client, ipg):
    note = edits.add_note("2.1", "example-a", "en", en="The opponent may reveal their hand.")
    target = edits.paragraph("2.4", "example-a")
    writing.change_note(note, paragraph=target, by=writing.CONTENT_FILES)
    assert {o.paragraph_id for o in Occurrence.objects.filter(note=note)} == {target.pk}
    added = next(
        aside for aside in notes_on(client, "/en/ipg/2.4/", "example-a") if "reveal their hand" in aside.text()
    )
    assert ("reveal", "reveal") in marks(added)
    assert "reveal their hand" not in client.get("/en/ipg/2.1/").content.decode()


CRAFTED = (
    'See [hand](https://example.com/hand "the hand > library") and `hand` and <span lang="hand">a</span> '
    'span, then *hand* and library<script>alert("hand")</script> &lt;script&gt;hand&lt;/script&gt; & "library".'
)


def test_a_crafted_note_is_never_broken_or_unescaped_by_its_marks(client, ipg):
    note = edits.add_note("2.1", "example-a", "en", en=CRAFTED)
    html = client.get("/en/ipg/2.1/").content.decode()
    body = next(b for b in parse(html).find_all("div", class_="note-body") if b.find("span", lang="hand") is not None)
    # Only text outside links, code and attributes is marked: the emphasised hand is the first, then library.
    assert marks(body) == [("hand", "hand"), ("library", "library")]
    assert term_mark(body.find("em"), "hand") is not None
    link = body.find("a", href="https://example.com/hand")
    assert link.attrs["title"] == "the hand > library" and link.text() == "hand" and link.find("a") is None
    assert body.find("code").text() == "hand" and not body.find("code").find_all()
    assert body.find("span", lang="hand").text() == "a"
    # The reader sees exactly the note's sanitized text, the escaped <script> as text and no script element.
    assert body.text(skip=("term-cards",)) == parse(str(render_markdown(CRAFTED))).text()
    assert "&lt;script&gt;hand&lt;/script&gt;" in html and 'alert("hand")' not in html
    assert 'title="the hand &gt; library"' in html
    assert {o.text for o in Occurrence.objects.filter(note=note)} == {"hand", "library"}


def test_a_note_reads_without_javascript_its_marks_linking_to_the_glossary(client, ipg):
    response = client.get("/en/ipg/2.3/")
    page = parse(response.content.decode())
    body = page.by_id("definition-1").next_siblings()[0].find_all("div", class_="note-body")[2]
    mark = term_mark(body, "face-down")
    assert mark.attrs["href"] == "/en/glossary/#face-down" and "aria-expanded" not in mark.attrs
    card, _ = card_names(page, mark)
    assert "hidden" in card.attrs  # shown only by the script; without it, the mark is a plain link
    glossary = parse(client.get(mark.attrs["href"].split("#")[0]).content.decode())
    assert glossary.by_id("face-down") is not None
    assert "ライブラリー" in body.text(skip=("term-cards",))


def test_an_older_versions_notes_are_not_marked(client, ipg):
    from ipgsite.releases.models import Release

    release = Release.objects.order_by("date").first()
    html = client.get(f"/ja/ipg/2.3/?release={release.date.isoformat()}").content.decode()
    assert 'class="note-body"' in html and 'class="term"' not in html


# Card names, every language, every mark ---------------------------------------------------------------------------

CARD_BRACKETS = re.compile(r"《([^》]+)》")  # how the Japanese text writes a card's name


def official_texts():
    """(paragraph, language, text) of every paragraph's official text."""
    for paragraph in Paragraph.objects.select_related("section"):
        for code, text in languages.translations(paragraph, "text").items():
            yield paragraph, code, text


def test_every_card_named_in_the_japanese_text_is_a_card_term(ipg):
    """T1: 《…》 is a card's name in the Japanese text (2.1's 悪名の騎士, 2.3's ジュワー島のスフィンクス/Sphinx of
    Jwar Isle): each is a term of kind card, by its Japanese name or, after a slash, its English one."""
    cards = {form: term.kind for term in lookup.vocabulary() for _code, form in term.forms()}
    named = [
        (f"{p.section.number}#{p.key}", name)
        for p, code, text in official_texts()
        if code == "ja"
        for bracket in CARD_BRACKETS.findall(text)
        for name in bracket.split("/")
    ]
    assert len(named) == 11
    assert [(place, name) for place, name in named if cards.get(name) != "card"] == []


def test_a_card_term_is_named_and_marked_in_every_language_of_the_paragraphs_that_use_it(client, ipg):
    """T1: a card the text names in one language has its name in every language the paragraph has, and each page marks
    it there: Sphinx of Jwar Isle / 爪尔岛史芬斯 / ジュワー島のスフィンクス in 2.3 remedy-5."""
    matcher = lookup.matcher()
    checked = 0
    for paragraph, _code, text in list(official_texts()):
        for _s, _e, _w, term in matcher.finditer(text):
            if term.kind != "card":
                continue
            for code, other in languages.translations(paragraph, "text").items():
                assert code in term.names, (term.key, code)
                assert any(t.key == term.key for _s, _e, _w, t in matcher.finditer(other, code)), (term.key, code)
                url = f"/{code}/ipg/{paragraph.section.number}/"
                assert term_mark(row(client, url, paragraph.key), term.key) is not None, (url, paragraph.key, term.key)
                checked += 1
    assert checked >= 20
    names = {
        code: term_mark(row(client, f"/{code}/ipg/2.3/", "remedy-5"), "sphinx-of-jwar-isle").text()
        for code in languages.CODES
    }
    assert names == {"en": "Sphinx of Jwar Isle", "zh-hans": "爪尔岛史芬斯", "ja": "ジュワー島のスフィンクス"}


# Where the translations of a paragraph do not mark what the others mark, and why: each read against the seeds.
REVIEWED_GAPS = {
    ("2.3#example-c", "trigger", "ja"): "《闇の腹心》の誘発型能力: a compound no term names whole, so not marked",
    ("2.3#upgrade-1", "morph", "ja"): "変異能力: a compound no term names whole, so not marked",
    ("2.3#upgrade-1", "disguise", "ja"): "the Japanese follows an older English, which named morph only",
    (
        "2.3#upgrade-1",
        "reveal",
        "ja",
    ): "the Japanese follows an older English, without 'an effect that would reveal it'",
    ("2.3#upgrade-1", "reveal", "zh-hans"): "the Chinese follows an older English, without that clause too",
    ("2.3#upgrade-1", "battlefield", "zh-hans"): "在游戏过程中: the Chinese says 'during the game'",
    ("2.4#example-c", "hand", "zh-hans"): "保留起手: the Chinese says 'the opening hand'",
}


def test_a_term_marked_in_one_language_of_a_paragraph_is_marked_in_every_language_it_has(ipg):
    """T2, T3 as a class: the Japanese 'reveal' (公開された, 公開し) in 2.3 philosophy-4 and remedy-3/4/5, the Chinese
    'hand' (手中, 手上) in 2.3 example-c, remedy-4 and upgrade-1, where the English marks them."""
    marked = {}
    for o in Occurrence.objects.filter(note__isnull=True).select_related("term", "paragraph__section"):
        place = f"{o.paragraph.section.number}#{o.paragraph.key}"
        marked.setdefault((place, o.term.key), set()).add(o.language)
    gaps = {}
    for paragraph in Paragraph.objects.select_related("section"):
        place = f"{paragraph.section.number}#{paragraph.key}"
        has = set(languages.translations(paragraph, "text"))
        for (at, key), codes in marked.items():
            if at == place:
                gaps.update({(place, key, code): "" for code in has - codes})
    assert set(gaps) == set(REVIEWED_GAPS)


def test_no_japanese_mark_is_the_head_of_a_longer_compound(client, ipg):
    """T5 as a class: 誘発 was marked inside 誘発型能力 36 times on /ja/ipg/2.1/. A form followed by more Han (or
    katakana) is the head of a compound no term names, and is not marked; a longer term still is (誘発忘れ)."""
    for o in Occurrence.objects.filter(language="ja").select_related("paragraph", "note"):
        text = o.note.body_in("ja") if o.note_id else o.paragraph.text_in("ja")
        matches = list(re.finditer(re.escape(o.text), text))
        assert any(not lookup.inside_compound(text, m.start(), m.end()) for m in matches), o.text
    html = client.get("/ja/ipg/2.1/").content.decode()
    assert re.search(r'class="term"[^>]*>誘発</a>型', html) is None
    # the near misses: two words side by side in Han are no compound; a hiragana ending closes a word
    assert lookup.inside_compound("誘発型能力", 0, 2)
    assert not lookup.inside_compound("本来占術をする", 2, 4)
    assert not lookup.inside_compound("1枚引くと", 2, 4)
    assert [t.key for t in lookup.terms_in("〔ゲーム上の誤り ─ 誘発忘れ〕")] == ["missed-trigger"]
