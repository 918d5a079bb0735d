"""The models whose rows change only through the write path, and what the write path needs to know of each.

The core's paragraphs and notes are registered here. Every content app registers its own models in its `editing.py`
module, which the app registry finds at start-up as the admin finds `admin.py` modules; so the write path, its
history, its statuses and its admin name no model of theirs:

    editing.register(Term, fields=("name", "variants", "inflections"), status_fields=("name",), clean=clean_form)

A registered model's rows are saved and deleted only inside a batch of writes (`writing.batch`): anything else is
refused, so no row skips its history, its rights or what is derived from it.
"""

from dataclasses import dataclass

from django.utils.module_loading import autodiscover_modules

from ipgsite.ipg import languages
from ipgsite.ipg.models import Note, Paragraph


@dataclass(frozen=True)
class Written:
    """How the write path writes one model's rows.

    `fields` are its translated texts (a column per language), written one by one through `writing.write_text`, each
    with its history; the first is the one a write names when it names none. A model without fields is structure
    only (a finder outcome): saved through `writing.save_structure`, by editors.

    `status_fields` are the texts whose translations have a status (missing, outdated, translated, reviewed), which
    follows the English; their texts are compared together. `source_language(obj)` is the language a row's
    translations follow, when it is not English (a note's: the language it was written in).

    `clean(obj, field, text)` returns a text as it is stored, or raises ValidationError; `check(obj, field, code,
    text)` refuses, under the row's lock, a text that other rows make wrong (a name another term has).
    """

    model: type
    fields: tuple = ()
    status_fields: tuple | None = None
    clean: object = None
    check: object = None
    source_language: object = None

    @property
    def default_field(self):
        return self.fields[0] if self.fields else None

    @property
    def has_statuses(self):
        return bool(self.fields) and self.status_fields != ()

    @property
    def compared_fields(self):
        return self.fields if self.status_fields is None else self.status_fields

    def source_of(self, obj):
        return self.source_language(obj) if self.source_language else languages.SOURCE

    def status_text(self, obj, code):
        """What a status compares: the `status_fields` in one language, '' unless every one of them is there."""
        texts = [languages.translated(obj, name, code) for name in self.compared_fields]
        return "\n".join(texts) if all(texts) else ""


_written = {}


def register(model, **options):
    """Make `model`'s rows change only through the write path, as `options` (see `Written`) say."""
    written = Written(model=model, **options)
    _written[model] = written
    return written


def written(obj_or_model):
    """The registration of a model (or of an object's model); KeyError for a model the write path does not write."""
    model = obj_or_model if isinstance(obj_or_model, type) else type(obj_or_model)
    return _written[model]


def is_written(obj_or_model):
    model = obj_or_model if isinstance(obj_or_model, type) else type(obj_or_model)
    return model in _written


def models():
    return list(_written)


def with_statuses():
    """The registrations of models whose translations have statuses, the core's (paragraphs, notes) first."""
    return [w for w in _written.values() if w.has_statuses]


def autodiscover():
    autodiscover_modules("editing")


register(Paragraph, fields=("text",))
register(Note, fields=("body",), source_language=lambda note: note.language)
