"""The index follows the text: whole after a bulk load, one paragraph or note after an edit (e.g. in the admin).

An edit is indexed when it is committed, or before the next search in the same thread (see crosslinks.backlog).
"""

from django.db.models.signals import post_save
from django.dispatch import receiver

from ipgsite.ipg.models import Note, Paragraph
from ipgsite.ipg.signals import content_loaded

from .index import backlog, rebuild_index


@receiver(content_loaded)
def reindex_everything(sender, **kwargs):
    rebuild_index()


@receiver(post_save, sender=Paragraph)
def reindex_paragraph(sender, instance, raw=False, **kwargs):
    if not raw:
        backlog.add(paragraph_id=instance.pk)


@receiver(post_save, sender=Note)
def reindex_note(sender, instance, raw=False, **kwargs):
    if not raw:
        backlog.add(note_id=instance.pk)
