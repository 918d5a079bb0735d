"""The translator groups (one per language) and the editors group, with their permissions.

Created by a data migration; `ensure_groups` also runs after every `migrate` (`after_migrate`), so that permissions
added later reach the groups.
"""

from django.apps import apps as global_apps

from ipgsite.ipg import languages

from .permissions import EDITORS, group_name, translate_permission

# What every translator needs to reach the admin and edit text; the language comes from translate_<code>.
TRANSLATOR_PERMISSIONS = [
    ("ipg", "view_chapter"),
    ("ipg", "view_section"),
    ("ipg", "change_section"),
    ("ipg", "view_paragraph"),
    ("ipg", "change_paragraph"),
    ("ipg", "view_note"),
    ("ipg", "add_note"),
    ("ipg", "change_note"),
    ("ipg", "delete_note"),
    ("ipg", "view_alias"),
    ("translations", "view_status"),
    ("translations", "view_change"),
    ("terms", "view_term"),
    ("terms", "change_term"),
    ("terms", "view_occurrence"),
    ("finder", "view_question"),
    ("finder", "change_question"),
    ("finder", "view_outcome"),
]


def ensure_groups(apps):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")

    def permissions(pairs):
        found = []
        for app_label, codename in pairs:
            permission = Permission.objects.filter(content_type__app_label=app_label, codename=codename).first()
            if permission is not None:
                found.append(permission)
        return found

    for code in languages.CODES:
        group, _created = Group.objects.get_or_create(name=group_name(code))
        group.permissions.add(*permissions([*TRANSLATOR_PERMISSIONS, ("translations", translate_permission(code))]))

    editors, _created = Group.objects.get_or_create(name=EDITORS)
    # Statuses are derived and history is append-only: editors view them, like translators.
    editors.permissions.add(
        *Permission.objects.filter(content_type__app_label="ipg"),
        *Permission.objects.filter(content_type__app_label="terms"),
        *Permission.objects.filter(content_type__app_label="finder"),
        *permissions(
            [("translations", "view_status"), ("translations", "view_change"), ("translations", "edit_structure")]
        ),
        *permissions([("translations", translate_permission(code)) for code in languages.CODES]),
    )


def after_migrate(sender, **kwargs):
    """post_migrate of the last app with models, once every app's permissions exist (the terms and finder apps come
    after this one: on a fresh database, or after a flush, their permissions did not yet exist at this app's own)."""
    if sender is [config for config in global_apps.get_app_configs() if config.models_module is not None][-1]:
        ensure_groups(global_apps)
