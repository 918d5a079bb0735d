"""The groups translators-en, translators-zh-hans, translators-ja and editors, with their permissions."""

from django.db import migrations


def create_groups(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    from ipgsite.editing.groups import ensure_groups

    # Permissions are normally created after all migrations; the groups need them now.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    ensure_groups(apps)


def delete_groups(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Group.objects.filter(name__in=["translators-en", "translators-zh-hans", "translators-ja", "editors"]).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("translations", "0001_initial"),
        ("ipg", "0002_revision"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_groups, delete_groups)]
