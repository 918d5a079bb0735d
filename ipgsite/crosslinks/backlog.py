"""Work owed to edits: done when the edit is committed, or before the next read in the same thread, if sooner.

Saving a paragraph queues it here rather than re-deriving its links (or search entries) at once: a
bulk load saves hundreds of rows and then rebuilds everything (`content_loaded`), and re-deriving
each row on the way would cost more than the load itself. The queue belongs to the thread that saved.
"""

import threading
from dataclasses import dataclass, field

from django.db import transaction


@dataclass
class Owed:
    paragraph_ids: set = field(default_factory=set)
    note_ids: set = field(default_factory=set)
    everything: bool = False

    def __bool__(self):
        return self.everything or bool(self.paragraph_ids or self.note_ids)


class Backlog:
    def __init__(self, redo, redo_everything):
        self.redo = redo  # redo(paragraph_ids, note_ids), given ids of rows that may since have been deleted
        self.redo_everything = redo_everything
        self.local = threading.local()

    def _owed(self):
        if not hasattr(self.local, "owed"):
            self.local.owed = Owed()
        return self.local.owed

    def add(self, paragraph_id=None, note_id=None):
        owed = self._owed()
        if paragraph_id is not None:
            owed.paragraph_ids.add(paragraph_id)
        if note_id is not None:
            owed.note_ids.add(note_id)
        transaction.on_commit(self.flush)

    def add_everything(self):
        self._owed().everything = True
        transaction.on_commit(self.flush)

    def flush(self):
        owed = self._owed()
        if owed:
            self.local.owed = Owed()
            if owed.everything:
                self.redo_everything()
            else:
                self.redo(owed.paragraph_ids, owed.note_ids)

    def clear(self):
        """Forget what is owed: everything has just been rebuilt."""
        self.local.owed = Owed()
