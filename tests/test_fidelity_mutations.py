"""Each kind of wrong edit to a copy of content/ is reported by the fidelity checks (tests/fidelity.py).

The wrong texts below are deliberately not IPG text: they exist to be caught.
"""

import shutil

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client

import fidelity
from ipgsite.contentfiles.sections import dump_section, read_content
from ipgsite.ipg.documents import NoteDoc


@pytest.fixture
def copy_of_content(tmp_path):
    directory = tmp_path / "content"
    shutil.copytree(settings.CONTENT_DIR, directory)
    return directory


def edit(directory, number, change):
    """Applies `change` to one section document of the copy, writes it back and reads the copy again."""
    _chapters, sections = read_content(directory)
    doc = next(d for d in sections if d.number == number)
    change(doc)
    doc.path.write_text(dump_section(doc), encoding="utf-8")
    return read_content(directory)


def paragraph(doc, key):
    return next(p for p in doc.paragraphs if p.key == key)


def first_sentence(text):
    return fidelity.sentences(text)[0]


# Each wrong edit: (section, change, words every report of it must contain)


def invented_sentence(doc):
    paragraph(doc, "philosophy-4").texts["en"] += " This sentence is in no seed."


def invented_translation(doc):
    paragraph(doc, "definition-2").texts["zh-hans"] = "这句译文没有来源。"


def invented_english_for_japanese_only_text(doc):
    paragraph(doc, "example-b").texts["en"] = "An English text that no seed has."


def invented_title(doc):
    doc.title["zh-hans"] = "游戏行动失误~没有来源的标题"


def invented_translation_of_a_note(doc):
    next(n for n in doc.notes if n.paragraph == "remedy-2").bodies["en"] = "An English note that no seed has."


def title_of_another_section(doc):
    doc.title["zh-hans"] = "游戏行动失误~额外看牌"


def invented_alias(doc):
    doc.aliases["ja"].append("どの原文にもない別名")


def invented_english_alias(doc):
    doc.aliases["en"].append("Hidden Mistake")


def invented_former_name(doc):
    doc.former_names["zh-hans"] = ["非公开牌张失误"]


def changed_english_title(doc):
    doc.title["en"] = "Tournament Error — Outside Help"


def duplicated_sentence(doc):
    text = paragraph(doc, "definition-1").texts["en"]
    paragraph(doc, "definition-1").texts["en"] = f"{text} {first_sentence(text)}"


def duplicated_sentence_in_a_note(doc):
    note = next(n for n in doc.notes if n.paragraph == "remedy-2")
    note.bodies["ja"] += first_sentence(note.bodies["ja"])


def sentence_copied_into_another_paragraph(doc):
    paragraph(doc, "example-b").texts["zh-hans"] += paragraph(doc, "example-a").texts["zh-hans"]


def swapped_examples(doc):
    b, c = paragraph(doc, "example-b"), paragraph(doc, "example-c")
    b.texts, c.texts = c.texts, b.texts


def swapped_example_rows(doc):
    i, j = (doc.paragraphs.index(paragraph(doc, k)) for k in ("example-b", "example-c"))
    doc.paragraphs[i], doc.paragraphs[j] = doc.paragraphs[j], doc.paragraphs[i]


def paragraph_moved_to_another_part(doc):
    moved = paragraph(doc, "philosophy-3")
    doc.paragraphs.remove(moved)
    moved.part = "additional-remedy"
    doc.paragraphs.insert(doc.paragraphs.index(paragraph(doc, "remedy-1")) + 1, moved)


def paragraph_relabelled_to_another_part(doc):
    paragraph(doc, "philosophy-2").part = "definition"


def lost_bullet(doc):
    paragraph(doc, "definition-4").bullet = False


def bullet_added(doc):
    paragraph(doc, "definition-5").bullet = True


def merged_paragraphs(doc):
    first, second = paragraph(doc, "remedy-1"), paragraph(doc, "remedy-2")
    for code, text in second.texts.items():
        first.texts[code] = fidelity.join(code, [first.texts[code], text])
    doc.paragraphs.remove(second)
    for note in doc.notes:
        if note.paragraph == "remedy-2":
            note.paragraph = "remedy-1"
    doc.notes.sort(key=lambda n: [p.key for p in doc.paragraphs].index(n.paragraph))


def merged_japanese_paragraphs(doc):
    first, second = paragraph(doc, "philosophy-1"), paragraph(doc, "philosophy-2")
    first.texts["ja"] += second.texts["ja"]
    doc.paragraphs.remove(second)


def stray_asterisk_list(doc):
    paragraph(doc, "example-d").texts["en"] = "* " + paragraph(doc, "example-d").texts["en"]


def stray_asterisk_emphasis(doc):
    p = paragraph(doc, "example-e")
    p.texts["en"] = p.texts["en"].replace("Anticipate", "*Anticipate*")


def no_break_spaces_made_ordinary(doc):
    p = paragraph(doc, "definition-9")
    p.texts["ja"] = p.texts["ja"].replace("\xa0", " ")


def removed_sentence(doc):
    p = paragraph(doc, "philosophy-5")
    p.texts["ja"] = p.texts["ja"].replace(first_sentence(p.texts["ja"]), "")


def removed_translation(doc):
    del paragraph(doc, "example-c").texts["zh-hans"]


def removed_note(doc):
    doc.notes = [n for n in doc.notes if n.paragraph != "philosophy-3"]


def note_moved_to_another_paragraph(doc):
    next(n for n in doc.notes if n.paragraph == "example-c").paragraph = "example-d"
    doc.notes.sort(key=lambda n: [p.key for p in doc.paragraphs].index(n.paragraph))


def note_made_official_text(doc):
    # remedy-2, which the finder quotes nowhere: merged into example-c, the note's 〔誘発忘れ〕 would have the finder's
    # question that quotes example-c conclude a Missed Trigger, which loadcontent refuses before any page shows it
    note = next(n for n in doc.notes if n.paragraph == "remedy-2")
    paragraph(doc, "remedy-2").texts["ja"] += note.bodies["ja"]
    doc.notes.remove(note)


def official_text_made_a_note(doc):
    p = paragraph(doc, "definition-13")
    doc.notes.append(NoteDoc(paragraph="definition-12", language="ja", source="Japanese edition", bodies=dict(p.texts)))
    doc.paragraphs.remove(p)


def text_in_a_section_no_seed_holds(doc):
    from ipgsite.ipg.documents import ParagraphDoc

    doc.paragraphs.append(ParagraphDoc(key="definition-1", part="definition", texts={"en": "A paragraph no seed has."}))


MUTATIONS = [
    ("2.3", invented_sentence, ["not in the seeds", "differs from seed 000"]),
    ("2.4", invented_translation, ["invented translation", "not in the seeds"]),
    ("2.1", invented_english_for_japanese_only_text, ["invented translation", "not in the seeds"]),
    ("2.3", invented_translation_of_a_note, ["note on remedy-2: has a en text no seed has", "en notes"]),
    ("2.1", invented_title, ["is in no seed"]),
    ("2.1", title_of_another_section, ["not a name the outline gives 2.1"]),
    ("2.3", invented_alias, ["is in no seed"]),
    ("2.3", invented_english_alias, ["neither in a seed"]),
    ("2.3", invented_former_name, ["no seed gives"]),
    ("3.2", changed_english_title, ["the outline has 'Tournament Error — Outside Assistance'"]),
    ("2.3", duplicated_sentence, ["2 times, the seed has it 1", "differs from seed 000"]),
    ("2.3", duplicated_sentence_in_a_note, ["notes", "2 times, the seed has it 1"]),
    ("2.3", sentence_copied_into_another_paragraph, ["2 times, the seed has it 1"]),
    ("2.3", swapped_examples, ["example-b: en differs", "example-c: zh-hans differs", "example-b: ja differs"]),
    ("2.3", swapped_example_rows, ["paragraphs in content/ are"]),
    (
        "2.3",
        paragraph_moved_to_another_part,
        ["part 'additional-remedy', the seeds put it under 'philosophy'", "paragraphs in content/ are"],
    ),
    ("2.4", paragraph_relabelled_to_another_part, ["part 'definition', the seeds put it under 'philosophy'"]),
    ("2.1", lost_bullet, ["definition-4: bullet is False"]),
    ("2.1", bullet_added, ["definition-5: bullet is True"]),
    ("2.3", merged_paragraphs, ["remedy-2: missing", "remedy-1: en differs", "notes on remedy-1"]),
    ("2.1", merged_japanese_paragraphs, ["philosophy-2: missing", "philosophy-1: ja differs"]),
    ("2.3", stray_asterisk_list, ["example-d: en differs", "not in the seeds"]),
    ("2.3", stray_asterisk_emphasis, ["example-e: en differs", "not in the seeds"]),
    ("2.1", no_break_spaces_made_ordinary, ["definition-9: ja differs from seed 004", "not in the seeds"]),
    ("2.3", removed_sentence, ["0 times, the seed has it 1", "philosophy-5: ja differs"]),
    ("2.3", removed_translation, ["example-c: lacks its zh-hans text"]),
    ("2.3", removed_note, ["notes on philosophy-3", "0 times, the seed has it 1"]),
    ("2.3", note_moved_to_another_paragraph, ["notes on example-c", "notes on example-d"]),
    ("2.3", note_made_official_text, ["official text", "notes on remedy-2", "remedy-2: ja differs"]),
    ("2.1", official_text_made_a_note, ["definition-13: missing", "notes on definition-12"]),
    ("2.2", text_in_a_section_no_seed_holds, ["2.2: has text, but no seed holds this section"]),
]


def test_the_unmodified_copy_passes(copy_of_content):
    chapters, sections = read_content(copy_of_content)
    assert fidelity.check_content(chapters, sections) == []


@pytest.mark.parametrize("number,change,reports", MUTATIONS, ids=[m[1].__name__ for m in MUTATIONS])
def test_each_wrong_edit_is_reported(copy_of_content, number, change, reports):
    chapters, sections = edit(copy_of_content, number, change)
    problems = fidelity.check_content(chapters, sections)
    assert problems, f"{change.__name__} went unnoticed"
    for words in reports:
        assert any(words in problem for problem in problems), (words, problems)


def test_a_sentence_counts_per_language_not_across_seeds(copy_of_content):
    """2.3's English is in seeds 000 and 003: content holds each English sentence once, not twice."""

    def doubled(doc):
        doc.paragraphs[0].texts["en"] += " " + doc.paragraphs[0].texts["en"]

    chapters, sections = edit(copy_of_content, "2.3", doubled)
    problems = fidelity.check_sentences(sections)
    assert len([p for p in problems if "2.3 en official text" in p and "2 times, the seed has it 1" in p]) == 3


RENDERED = [
    (
        "2.3",
        "en",
        stray_asterisk_list,
        ["example-d (en): rendered with <li>", "example-d (en): rendered with <ul>", "rendered as 0 paragraphs"],
    ),
    ("2.3", "en", stray_asterisk_emphasis, ["example-e (en): rendered with <em>"]),
    ("2.3", "en", swapped_examples, ["2.3 example-b (en): shown as", "2.3 example-c (en): shown as"]),
    ("2.3", "ja", note_made_official_text, ["remedy-2 (ja): shown as", "the commentary on remedy-2"]),
    (
        "2.3",
        "zh-hans",
        paragraph_moved_to_another_part,
        ["philosophy-3: shown in part-additional-remedy", "the page shows paragraphs"],
    ),
    ("2.1", "ja", lost_bullet, ["definition-4: shown without a bullet"]),
    ("2.3", "ja", note_moved_to_another_paragraph, ["a note shown after example-d is not the seeds' commentary"]),
]


@pytest.mark.parametrize("number,lang,change,reports", RENDERED, ids=[m[2].__name__ for m in RENDERED])
def test_each_wrong_edit_shows_on_the_rendered_page(db, copy_of_content, number, lang, change, reports):
    url = f"/{lang}/ipg/{number}/"
    call_command("loadcontent", str(copy_of_content), verbosity=0)
    assert fidelity.check_page(Client().get(url).content.decode(), number, [lang]) == []

    edit(copy_of_content, number, change)
    call_command("loadcontent", str(copy_of_content), verbosity=0)
    problems = fidelity.check_page(Client().get(url).content.decode(), number, [lang])
    assert problems, f"{change.__name__} went unnoticed on {url}"
    for words in reports:
        assert any(words in problem for problem in problems), (words, problems)


# The termbase: each wrong edit of content/terms.toml is reported by fidelity.check_terms.


def _term(terms, key):
    return next(t for t in terms if t.key == key)


def invented_term_name(terms):
    _term(terms, "battlefield").names["zh-hans"] = "战场"  # the seeds name no Chinese battlefield


def invented_variant(terms):
    _term(terms, "mulligan").variants["en"].append("mull")


def names_swapped_between_terms(terms):
    mulligan, scry = _term(terms, "mulligan"), _term(terms, "scry")
    mulligan.names["ja"], scry.names["ja"] = scry.names["ja"], mulligan.names["ja"]
    mulligan.found["占術"], scry.found["マリガン"] = scry.found.pop("占術"), mulligan.found.pop("マリガン")


def location_that_does_not_hold_the_name(terms):
    _term(terms, "library").found["library"] = ["001:3"]


def paragraph_location_that_does_not_hold_the_name(terms):
    _term(terms, "hand").found["手札"] = ["2.3#example-a"]


def defining_paragraph_of_another_section(terms):
    _term(terms, "mulligan-procedure-error").defined_at = "2.3#definition-1"


def defining_paragraph_that_is_no_definition(terms):
    _term(terms, "hidden-card-error").defined_at = "2.3#example-a"


TERM_EDITS = [
    (invented_term_name, "'战场' is in no zh-hans seed"),
    (invented_variant, "'mull' is in no en seed"),
    (names_swapped_between_terms, "no aligned paragraph holds both its en and ja names"),
    (location_that_does_not_hold_the_name, "seed line 001:3 does not hold 'library'"),
    (paragraph_location_that_does_not_hold_the_name, "paragraph 2.3#example-a does not hold '手札'"),
    (defining_paragraph_of_another_section, "defines a section that none of its names names"),
    (defining_paragraph_that_is_no_definition, "2.3#example-a is no definition"),
]


@pytest.mark.parametrize("change, report", TERM_EDITS, ids=[c.__name__ for c, _r in TERM_EDITS])
def test_each_wrong_edit_of_the_termbase_is_reported(copy_of_content, change, report):
    from ipgsite.contentfiles.terms import dump_terms, read_terms

    _chapters, sections = read_content(copy_of_content)
    terms = read_terms(copy_of_content, sections)
    assert fidelity.check_terms(terms, sections) == []
    change(terms)
    (copy_of_content / "terms.toml").write_text(dump_terms(terms), encoding="utf-8")
    problems = fidelity.check_terms(read_terms(copy_of_content, sections), sections)
    assert any(report in problem for problem in problems), problems
