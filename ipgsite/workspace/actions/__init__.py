"""The translators' workspace's actions: each one thing a translator does, with `check()` (raising a `Refused` a
person can read: not allowed 403, conflict 409 with both versions, busy 503) and `execute()`. The views read the
request, run an action, and show its result or its refusal."""

from .base import Action, Busy, Conflicting, NotAllowed, NothingToDo, Refused, refusing
from .history import Revert
from .importing import Document, ImportDocument, Imported, chosen_rows, read_document
from .texts import ConfirmTranslation, ReviewTranslation, SaveTexts, SaveTranslation, name_of, stored_status

__all__ = [
    "Action",
    "Busy",
    "ConfirmTranslation",
    "Conflicting",
    "Document",
    "ImportDocument",
    "Imported",
    "NotAllowed",
    "NothingToDo",
    "Refused",
    "ReviewTranslation",
    "Revert",
    "SaveTexts",
    "SaveTranslation",
    "chosen_rows",
    "name_of",
    "read_document",
    "refusing",
    "stored_status",
]
