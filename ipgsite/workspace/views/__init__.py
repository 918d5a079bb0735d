"""The translators' pages inside the admin, one module per page; each reads the request, runs an action
(`ipgsite.workspace.actions`) and shows its result or its refusal."""

from ..access import page_context, translators_only
from .account import interface_language, login
from .dashboard import dashboard
from .history import paragraph_history, revert_change
from .importing import import_text
from .translate import preview, translate

__all__ = [
    "dashboard",
    "import_text",
    "interface_language",
    "login",
    "page_context",
    "paragraph_history",
    "preview",
    "revert_change",
    "translate",
    "translators_only",
]
