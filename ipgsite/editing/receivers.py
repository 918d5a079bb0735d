"""The translators' groups follow every migrate; paragraphs, notes, terms and the finder change only through `writing`.

(What a write sets off is not here: see `ipgsite.editing.after_write`.)
"""

from django.apps import apps as global_apps
from django.db.models.signals import post_migrate, pre_delete, pre_save
from django.dispatch import receiver

from ipgsite.finder.models import Outcome, Question
from ipgsite.ipg.models import Note, Paragraph
from ipgsite.terms.models import Term

from .groups import ensure_groups
from .writing import refuse_writes_outside_a_batch


@receiver(pre_save, sender=Paragraph)
@receiver(pre_save, sender=Note)
@receiver(pre_delete, sender=Paragraph)
@receiver(pre_delete, sender=Note)
@receiver(pre_save, sender=Term)
@receiver(pre_delete, sender=Term)
@receiver(pre_save, sender=Question)
@receiver(pre_delete, sender=Question)
@receiver(pre_save, sender=Outcome)
@receiver(pre_delete, sender=Outcome)
def only_through_writing(sender, instance, raw=False, **kwargs):
    if not raw:
        refuse_writes_outside_a_batch(instance)


def groups_after_migrate(sender, **kwargs):
    ensure_groups(global_apps)


post_migrate.connect(groups_after_migrate, sender=global_apps.get_app_config("translations"))
