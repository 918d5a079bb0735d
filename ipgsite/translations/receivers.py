"""History, revisions and statuses follow every save of a paragraph or note; groups follow every migrate."""

from django.apps import apps as global_apps
from django.db.models import QuerySet
from django.db.models.signals import post_delete, post_migrate, post_save, pre_save
from django.dispatch import receiver

from ipgsite.ipg import languages
from ipgsite.ipg.models import Note, Paragraph
from ipgsite.ipg.signals import content_loaded

from .groups import ensure_groups
from .history import column, current_editing, note_data, text_of
from .models import Change
from .status import SOURCE, ensure_statuses, refresh_statuses


@receiver(pre_save, sender=Paragraph)
@receiver(pre_save, sender=Note)
def note_what_changes(sender, instance, raw=False, **kwargs):
    """Compare with the stored row; a save that changes a text gets the next revision."""
    if raw:
        return
    columns = {code: column(sender, code) for code in languages.CODES}
    stored = None
    if instance.pk is not None:
        stored = sender.objects.filter(pk=instance.pk).values("revision", *columns.values()).first()
    before = {code: (stored or {}).get(col) or "" for code, col in columns.items()}
    diffs = {}
    for code, col in columns.items():
        after = getattr(instance, col) or ""
        if after != before[code]:
            diffs[code] = (before[code], after)
    revision = stored["revision"] if stored else 0
    instance.revision = revision + 1 if (diffs or stored is None) else revision
    instance._changes = diffs


@receiver(post_save, sender=Paragraph)
def record_paragraph_changes(sender, instance, created, raw=False, **kwargs):
    if raw:
        return
    diffs = instance.__dict__.pop("_changes", {})
    if not diffs and not created:
        return
    context = current_editing()
    Change.objects.bulk_create(
        Change(
            paragraph=instance,
            field="text",
            language=code,
            before=before,
            after=after,
            revision=instance.revision,
            user=context.user,
            minor=context.minor and code == SOURCE,
            reverts=context.reverting,
        )
        for code, (before, after) in diffs.items()
    )
    refresh_statuses(
        instance,
        changed=set(diffs),
        english_before=diffs[SOURCE][0] if SOURCE in diffs else None,
        minor=context.minor,
        user=context.user,
    )


@receiver(post_save, sender=Note)
def record_note_changes(sender, instance, created, raw=False, **kwargs):
    if raw:
        return
    diffs = instance.__dict__.pop("_changes", {})
    context = current_editing()
    common = dict(paragraph_id=instance.paragraph_id, note=instance, field="body", revision=instance.revision,
                  user=context.user, reverts=context.reverting)
    if created:
        Change.objects.create(
            action=Change.Action.ADD,
            language=instance.language,
            after=text_of(instance, instance.language),
            note_data=note_data(instance),
            **common,
        )
        return
    Change.objects.bulk_create(
        Change(language=code, before=before, after=after, **common) for code, (before, after) in diffs.items()
    )


@receiver(post_delete, sender=Note)
def record_note_deleted(sender, instance, origin=None, **kwargs):
    # A note deleted with its paragraph or section goes with the paragraph's history: nothing to record.
    deleted_itself = isinstance(origin, Note) or (isinstance(origin, QuerySet) and origin.model is Note)
    if not deleted_itself:
        return
    context = current_editing()
    Change.objects.create(
        paragraph_id=instance.paragraph_id,
        action=Change.Action.DELETE,
        field="body",
        language=instance.language,
        before=text_of(instance, instance.language),
        note_data=note_data(instance),
        revision=instance.revision,
        user=context.user,
        reverts=context.reverting,
    )


@receiver(content_loaded)
def statuses_for_loaded_content(sender, **kwargs):
    ensure_statuses()


def groups_after_migrate(sender, **kwargs):
    ensure_groups(global_apps)


post_migrate.connect(groups_after_migrate, sender=global_apps.get_app_config("translations"))
