"""Links follow the text: rebuilt when content is loaded, when a paragraph or note is saved, and when names change."""

from django.db.models.signals import post_delete, post_save, pre_save
from django.dispatch import receiver

from ipgsite.ipg import languages
from ipgsite.ipg.models import Alias, Note, Paragraph, Section
from ipgsite.ipg.signals import content_loaded

from .build import backlog, rebuild_links

NAME_FIELDS = ["number", *(f"title_{languages.field_suffix(code)}" for code in languages.CODES)]


@receiver(content_loaded)
def relink_everything(sender, **kwargs):
    rebuild_links()


@receiver(post_save, sender=Paragraph)
def relink_saved_paragraph(sender, instance, raw=False, **kwargs):
    if not raw:
        backlog.add(paragraph_id=instance.pk)


@receiver(post_save, sender=Note)
def relink_saved_note(sender, instance, raw=False, **kwargs):
    if not raw:
        backlog.add(note_id=instance.pk)


@receiver(pre_save, sender=Section)
def notice_new_names(sender, instance, raw=False, **kwargs):
    """An edited title or number is a changed name. A new section gets its links when content is loaded."""
    instance._names_changed = False
    if raw or instance._state.adding:
        return
    before = Section.objects.filter(pk=instance.pk).values(*NAME_FIELDS).first()
    instance._names_changed = before is None or any(before[f] != getattr(instance, f) for f in NAME_FIELDS)


@receiver(post_save, sender=Section)
def relink_after_renaming(sender, instance, raw=False, **kwargs):
    if not raw and getattr(instance, "_names_changed", False):
        backlog.add_everything()


@receiver(post_save, sender=Alias)
@receiver(post_delete, sender=Alias)
@receiver(post_delete, sender=Section)
def relink_after_names_change(sender, instance, **kwargs):
    """Any change of names may add or remove mentions anywhere: find them all again."""
    if not kwargs.get("raw"):
        backlog.add_everything()
