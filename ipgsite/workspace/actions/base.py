"""What every action of the workspace shares: `check()` says whether it may be done, raising a `Refused` that a
person can read, and `execute()` checks, then does it (as Wagtail's `actions/` do). Views only read the request,
run an action and show its result or its refusal."""

from contextlib import contextmanager

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext as _

from ipgsite.editing import writing


class Refused(Exception):
    """Why an action was not done, in the words of the interface's language, and the HTTP status that says so."""

    status = 400
    level = messages.ERROR  # how a page tells it

    def __init__(self, message):
        super().__init__(str(message))
        self.message = str(message)


class NothingToDo(Refused):
    """Not an error: what was asked for is already so (a translation that is not outdated, confirmed)."""

    status = 200
    level = messages.INFO


class NotAllowed(Refused, PermissionDenied):
    """The user lacks the right (another language, structure, reviewing their own translation): 403."""

    status = 403


class Conflicting(Refused):
    """Someone saved the text after the user opened it: both versions, nothing overwritten (409)."""

    status = 409

    def __init__(self, conflict, message=None):
        super().__init__(
            message
            or _(
                "Someone else saved this text after you opened the page. Nothing was overwritten: compare both "
                "versions, then save again to keep yours."
            )
        )
        self.conflict = conflict

    @property
    def yours(self):
        return self.conflict.yours

    @property
    def theirs(self):
        return self.conflict.theirs


class Busy(Refused, writing.Busy):
    """Another batch of writes held the write lock for longer than a writer waits: nothing was written (503). A view
    that does not show it itself leaves it to `editing.middleware.BusyWritesMiddleware`'s page."""

    status = 503

    def __init__(self, message=None):
        super().__init__(
            message
            or _(
                "Another change (an import, perhaps) was being written for longer than %(seconds)d seconds. Nothing "
                "of yours was saved. Save again in a minute."
            )
            % {"seconds": writing.WAIT_FOR_WRITES}
        )


@contextmanager
def refusing():
    """What the write path raises, as refusals: a lost update, a busy lock, a missing right, a bad text."""
    try:
        yield
    except Refused:
        raise
    except writing.Conflict as conflict:
        raise Conflicting(conflict) from conflict
    except writing.Busy as busy:
        raise Busy() from busy
    except PermissionDenied as denied:
        raise NotAllowed(str(denied)) from denied
    except ValidationError as error:
        raise Refused(" ".join(error.messages)) from error


class Action:
    """One thing a translator does. `check()` raises `Refused` without writing anything; `execute()` checks again
    and does it, returning what it did."""

    def check(self):
        """Raise `Refused` if the action may not be done now."""

    def execute(self):
        self.check()
        with refusing():
            return self.perform()

    def perform(self):
        raise NotImplementedError

    def allowed(self):
        """Whether `check()` passes: for a page that offers the action only where it may be done."""
        try:
            self.check()
        except Refused:
            return False
        return True
