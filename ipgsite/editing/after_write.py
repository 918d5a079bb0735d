"""What a write of the IPG's content sets off, in the order `settings.AFTER_WRITE` lists the steps.

Every write goes through `ipgsite.editing.writing`, which itself records, in the locked row:
  1. the revision of the text (the next writer's lost-update check reads it);
  2. the history: a `Change` with who, when, before and after.
Then, once per batch of writes (one request, or one load of content/), in the same transaction, each step the
setting names (a dotted path, as MIDDLEWARE names middleware) is called with the batch (`writing.Batch`: the edits,
and what else changed). Each app that keeps something derived from the text adds its own step there.
"""

from functools import cache

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils.module_loading import import_string


@cache
def steps():
    return tuple(import_string(path) for path in settings.AFTER_WRITE)


@receiver(setting_changed)
def _forget_steps(setting, **kwargs):
    if setting == "AFTER_WRITE":
        steps.cache_clear()


def apply(batch):
    for step in steps():
        step(batch)
