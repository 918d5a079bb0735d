"""Making the database's finder exactly what content/finder.toml says, as one batch of writes by the content files."""

from ipgsite.ipg import languages
from ipgsite.ipg.models import Section
from ipgsite.translations import writing
from ipgsite.translations.writing import CONTENT_FILES, LATEST

from .models import Example, Outcome, Question


def load_finder(graph):
    """{created, updated, deleted}: the counts of questions, outcomes and worked examples. Unchanged ones are not
    touched.

    `graph` None (no finder.toml) empties the finder.
    """
    stats = {"created": 0, "updated": 0, "deleted": 0}
    questions = graph.questions if graph else []
    outcomes = graph.outcomes if graph else []
    examples = graph.examples if graph else []
    sections = {s.number: s.pk for s in Section.objects.all()}
    with writing.batch(CONTENT_FILES):
        for model, docs in ((Question, questions), (Outcome, outcomes)):
            for obj in model.objects.exclude(key__in=[doc.key for doc in docs]):
                writing.delete(obj, by=CONTENT_FILES)
                stats["deleted"] += 1
        for obj in Example.objects.exclude(paragraph__in=[doc.paragraph for doc in examples]):
            writing.delete(obj, by=CONTENT_FILES)
            stats["deleted"] += 1
        existing = {o.key: o for o in Outcome.objects.all()}
        for order, doc in enumerate(outcomes, 1):
            outcome = existing.get(doc.key) or Outcome(key=doc.key)
            values = {"order": order, "section_id": sections[doc.section], "cites": doc.cites}
            if outcome.pk is None or any(getattr(outcome, name) != value for name, value in values.items()):
                stats["created" if outcome.pk is None else "updated"] += 1
                writing.save_structure(outcome, values, by=CONTENT_FILES)
        existing = {q.key: q for q in Question.objects.all()}
        for order, doc in enumerate(questions, 1):
            question = existing.get(doc.key) or Question(key=doc.key)
            created = question.pk is None
            choices = [{"key": a.key, "next": a.next} for a in doc.answers]
            values = {"order": order, "choices": choices, "cites": doc.cites}
            changed = created or any(getattr(question, name) != value for name, value in values.items())
            if changed:
                question = writing.save_structure(question, values, by=CONTENT_FILES)
            wording = {
                "text": doc.texts,
                "answers": {
                    code: "\n".join(a.labels[code] for a in doc.answers)
                    for code in languages.CODES
                    if all(a.labels.get(code) for a in doc.answers)
                },
            }
            for name, by_language in wording.items():
                for code in languages.CODES:
                    value = by_language.get(code, "")
                    if value != writing.text_in(question, code, name):
                        changed |= writing.write_text(
                            question, code, value, by=CONTENT_FILES, base_revision=LATEST, field=name
                        )
                        question.refresh_from_db()
            if created:
                stats["created"] += 1
            elif changed:
                stats["updated"] += 1
        existing = {e.paragraph: e for e in Example.objects.all()}
        for order, doc in enumerate(examples, 1):
            example = existing.get(doc.paragraph) or Example(paragraph=doc.paragraph)
            values = {"order": order, "answers": doc.answers}
            if example.pk is None or any(getattr(example, name) != value for name, value in values.items()):
                stats["created" if example.pk is None else "updated"] += 1
                writing.save_structure(example, values, by=CONTENT_FILES)
    return stats
