"""How the write path writes terms (`ipgsite.editing.registry`): a term's name, variants and inflections per
language, each with its history; each name's status follows the English name."""

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from ipgsite.editing import registry
from ipgsite.editing.writing import clean_text, text_column
from ipgsite.ipg import languages

from .models import Term

FIELDS = ("name", "variants", "inflections")  # its name, and its other forms one per line


def clean_form(term, field, text):
    """A term's name (one line, at most its column's length) or its forms (one per line, each once)."""
    text = clean_text(text)
    if field == "name":
        if "\n" in text:
            raise ValidationError(_("A term's name is one line; put other forms under its variants."))
        limit = Term._meta.get_field("name").max_length
        if len(text) > limit:
            raise ValidationError(_("A term's name has at most %(max)d characters.") % {"max": limit})
        return text
    return "\n".join(dict.fromkeys(line.strip() for line in text.split("\n") if line.strip()))


def check_name(term, field, code, text):
    """Under the term's lock: a name no other term has, and at least one name left."""
    if field != "name":
        return
    if text:
        refuse_shared_name(term, code, text)
    else:
        refuse_nameless([term.name_in(other) for other in languages.others(code)])


def refuse_nameless(names):
    """A term keeps at least one name: `names` are the names it would have left."""
    if not any(names):
        raise ValidationError(_("A term keeps at least one name; an editor deletes a term that has none."))


def refuse_shared_name(term, code, name):
    """Two terms never share a name in one language: a reader could not tell which one a text means.

    `term` is the term named, or None for a term not yet saved."""
    column = text_column(Term, code, "name")
    others = Term.objects.exclude(pk=term.pk) if term is not None else Term.objects.all()
    other = others.filter(**{f"{column}__iexact": name}).first()
    if other is not None:
        raise ValidationError(
            _("%(name)s is already the name of the term %(other)s.") % {"name": name, "other": other.key}
        )


registry.register(Term, fields=FIELDS, status_fields=("name",), clean=clean_form, check=check_name)
