"""What a write of the IPG's content sets off: the after-write steps, which the setting `AFTER_WRITE` lists in order.

This is the one mechanism for every effect of a write. Each write goes through `ipgsite.editing.writing`, inside a
batch of writes (`writing.batch`: one request, one load of content/, one published release), and records its
revision and history itself. When the outermost batch ends, still inside its transaction, each step is called once,
in the order listed, with the batch (`writing.Batch`: the edits, and what else changed). A step whose work must wait
for the commit (a purge of the shared caches, the link preview pictures) asks for it with `transaction.on_commit`.

The steps are named in a setting, as MIDDLEWARE is, and are not the receivers of a signal: their order matters and is
read in one place, not in the order apps happen to connect; each app that keeps something derived from the text adds
its own step there, and the write path imports none.
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
