"""Making the database's terms exactly what content/terms.toml says, as one batch of writes by the content files."""

from ipgsite.ipg import languages
from ipgsite.ipg.models import Paragraph
from ipgsite.translations import writing
from ipgsite.translations.writing import CONTENT_FILES, LATEST

from .models import Term


def _values(doc, order, paragraphs):
    defined = paragraphs[tuple(doc.defined_at.split("#"))] if doc.defined_at else None
    return {
        "kind": doc.kind,
        "order": order,
        "defined_in_id": defined,
        "found": doc.found,
        "attested_by_variants": doc.attested_by_variants,
        "not_in": doc.not_in,
    }


def load_terms(docs):
    """{created, updated, deleted}: the counts of terms. Unchanged terms are not touched."""
    stats = {"created": 0, "updated": 0, "deleted": 0}
    paragraphs = {(p.section.number, p.key): p.pk for p in Paragraph.objects.select_related("section")}
    english_changed = set()
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
                        if field == "name" and code == languages.SOURCE and not created:
                            english_changed.add(term.key)
                        changed |= writing.write_text(
                            term, code, value, by=CONTENT_FILES, base_revision=LATEST, field=field
                        )
                        term.refresh_from_db()
            if created:
                stats["created"] += 1
            elif changed:
                stats["updated"] += 1
    load_term_statuses(docs, english_changed)
    return stats


def load_term_statuses(docs, english_changed=()):
    """Make each translated name's status what the file says: outdated (it follows an older English name, which
    the site does not hold), reviewed, or translated. A term whose English name this load changed keeps the
    statuses the change gave it."""
    from django.utils import timezone

    from ipgsite.translations.models import Status
    from ipgsite.translations.status import state_for

    by_key = {doc.key: doc for doc in docs}
    for status in Status.objects.of_terms().exclude(language=languages.SOURCE).select_related("term"):
        doc, term = by_key.get(status.term.key), status.term
        name, english = term.name_in(status.language), term.name_in(languages.SOURCE)
        if doc is None or not name or term.key in english_changed:
            continue
        before = (status.confirmed_source, status.reviewed_at is not None, status.state)
        if status.language not in doc.outdated:
            status.confirmed_source = english
        elif status.confirmed_source == english:
            status.confirmed_source = ""  # an older English name, which the site does not hold
        if status.language in doc.reviewed:
            status.reviewed_at = status.reviewed_at or timezone.now()
        else:
            status.reviewed_by, status.reviewed_at = None, None
        status.state = state_for(status, name, english)
        if before != (status.confirmed_source, status.reviewed_at is not None, status.state):
            status.save()
