"""ipgsite.terms.lookup: the termbase as the search reads it."""

from ipgsite.editing import writing
from ipgsite.terms.lookup import TermForms, terms_in, vocabulary
from ipgsite.terms.models import Term


def keys(text):
    return [term.key for term in terms_in(text)]


def test_vocabulary_holds_every_term_with_its_names_variants_and_definition(ipg):
    terms = {term.key: term for term in vocabulary()}
    assert len(terms) == Term.objects.count()
    assert terms["mulligan"] == TermForms(
        key="mulligan",
        kind="game-term",
        names={"en": "mulligan", "zh-hans": "再调度", "ja": "マリガン"},
        variants={"en": ("mulligans", "mulliganed", "mulliganing")},
        defined_at=None,
    )
    assert terms["draw"].variants["en"] == ("draws", "drawn", "drew", "drawing")
    assert terms["hidden-card-error"].defined_at == "2.3#definition-1"
    assert "en" not in terms["missed-trigger"].names  # missing, not empty


def test_latin_forms_match_whole_words_in_any_case(ipg):
    assert keys("A player DREW four cards") == ["draw"]
    assert keys("Scried two") == ["scry"]
    assert keys("withdrawn and redrawing") == []  # inside other words: no
    assert keys("the hidden  set") == ["hidden-set"]


def test_cjk_forms_match_as_substrings_and_the_longest_form_wins(ipg):
    assert keys("牌手结算了黑暗亲信的触发") == ["dark-confidant", "trigger"]
    assert keys("再调度失误") == ["mulligan-procedure-error"]  # not also mulligan
    # 誘発型能力 is a compound no term names whole: not marked by its head 誘発 (a compound is marked whole or not)
    assert keys("《闇の腹心》の誘発型能力") == ["dark-confidant"]
    assert keys("能力の誘発を忘れて") == ["trigger"]


def test_no_terms_in_text_without_them(ipg):
    assert keys("") == []
    assert keys("(*&^%$ \x00 ‮") == []


def test_vocabulary_follows_an_edit_at_once(ipg):
    term = Term.objects.get(key="battlefield")
    assert "zh-hans" not in {t.key: t for t in vocabulary()}["battlefield"].names
    writing.write_text(term, "zh-hans", "战场", by=writing.CONTENT_FILES, base_revision=term.revision)
    assert {t.key: t for t in vocabulary()}["battlefield"].names["zh-hans"] == "战场"
    assert keys("战场上") == ["battlefield"]
