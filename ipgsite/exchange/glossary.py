"""The termbase of a language pair as a tab-separated glossary, as OmegaT reads it from its `glossary/` folder:
source term, target term, comment; one line per term that has a name in both languages."""

from ipgsite.terms.models import Term


def _cell(value):
    return " ".join(value.split())  # a tab or line end inside a name would start a new column or entry


def export_glossary(source, target):
    """The glossary as text (UTF-8 when written, with LF line ends). The comment is the term's kind and key, and the
    target language's other forms, if any."""
    lines = []
    for term in Term.objects.in_glossary_order():
        name, translation = term.name_in(source), term.name_in(target)
        if not name or not translation:
            continue
        comment = f"{term.kind}: {term.key}"
        forms = term.variants_in(target)
        if forms:
            comment += "; " + ", ".join(forms)
        lines.append("\t".join(_cell(value) for value in (name, translation, comment)))
    return "".join(line + "\n" for line in lines)
