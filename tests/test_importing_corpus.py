"""Every document of the corpus translators really hold (tests/fixtures/documents/, made from the seeds by its make.py:
PDFs and the text copied from them, saved wiki and blog pages, Word, Markdown, DokuWiki, two-column tables, marked
annotated editions, whole documents) comes in whole and right: each paragraph and note the clean seeds give, in the
same place, with the same text (width and whitespace aside), and nothing else."""

import pytest

from importing_measure import DOCUMENTS, corpus_scores, manifest
from people import SEEDS

pytestmark = pytest.mark.skipif(not (DOCUMENTS / "manifest.json").is_file(), reason="the corpus is not made")
CORPUS = manifest() if (DOCUMENTS / "manifest.json").is_file() else []


def test_the_corpus_has_every_kind_of_document_and_only_seed_text():
    kinds = {entry["file"].rsplit(".", 1)[-1] for entry in CORPUS}
    assert {"pdf", "html", "docx", "md", "txt", "tsv", "csv"} <= kinds
    described = " ".join(entry["kind"] for entry in CORPUS)
    for wanted in ("pasted from a PDF", "wiki", "blog", "DokuWiki", "two-column", "markers", "heading missing"):
        assert wanted in described
    assert {prefix for entry in CORPUS for prefix in entry["seeds"]} == {p.name[:3] for p in SEEDS.glob("*.txt")}


@pytest.mark.parametrize("entry", CORPUS, ids=[entry["file"] for entry in CORPUS])
def test_each_document_comes_in_whole_and_right(ipg, entry):
    (paragraph_precision, paragraph_recall), (note_precision, note_recall), problem, _uncertain = corpus_scores(entry)
    assert not problem, problem
    assert paragraph_precision >= 0.95 and paragraph_recall >= 0.95, (paragraph_precision, paragraph_recall)
    assert note_precision >= 0.95 and note_recall >= 0.95, (note_precision, note_recall)
