"""Making the database's terms exactly what content/terms.toml says, as one batch of writes by the content files."""

from ipgsite.ipg import languages
from ipgsite.ipg.models import Paragraph
from ipgsite.translations import writing
from ipgsite.translations.writing import CONTENT_FILES, LATEST

from .models import Term


def _values(doc, order, paragraphs):
    defined = paragraphs[tuple(doc.defined_at.split("#"))] if doc.defined_at else None
    return {"kind": doc.kind, "order": order, "defined_in_id": defined, "found": doc.found}


def load_terms(docs):
    """{created, updated, deleted}: the counts of terms. Unchanged terms are not touched."""
    stats = {"created": 0, "updated": 0, "deleted": 0}
    paragraphs = {(p.section.number, p.key): p.pk for p in Paragraph.objects.select_related("section")}
    with writing.batch(CONTENT_FILES):
        for term in Term.objects.exclude(key__in=[doc.key for doc in docs]):
            writing.delete(term, by=CONTENT_FILES)
            stats["deleted"] += 1
        existing = {term.key: term for term in Term.objects.all()}
        for order, doc in enumerate(docs, 1):
            term = existing.get(doc.key) or Term(key=doc.key)
            values = _values(doc, order, paragraphs)
            created = term.pk is None
            changed = created or any(getattr(term, name) != value for name, value in values.items())
            if changed:
                term = writing.save_structure(term, values, by=CONTENT_FILES)
            texts = {
                "name": doc.names,
                "variants": {code: "\n".join(forms) for code, forms in doc.variants.items()},
                "inflections": {code: "\n".join(forms) for code, forms in doc.inflections.items()},
            }
            for field, by_language in texts.items():
                for code in languages.CODES:
                    value = by_language.get(code, "")
                    if value != writing.text_in(term, code, field):
                        changed |= writing.write_text(
                            term, code, value, by=CONTENT_FILES, base_revision=LATEST, field=field
                        )
                        term.refresh_from_db()
            if created:
                stats["created"] += 1
            elif changed:
                stats["updated"] += 1
    return stats
