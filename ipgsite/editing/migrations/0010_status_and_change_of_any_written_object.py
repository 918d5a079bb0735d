"""Statuses and changes of terms and finder questions name their row by content type and id, as those of any model
the write path writes (`ipgsite.editing.registry`), instead of a foreign key per model; existing rows are kept."""

import django.db.models.deletion
from django.db import migrations, models

OLD = {"term": ("terms", "term"), "question": ("finder", "question")}


def to_content_types(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    for name in ("Status", "Change"):
        model = apps.get_model("translations", name)
        for field, (app_label, model_name) in OLD.items():
            rows = model.objects.filter(**{f"{field}__isnull": False})
            if rows.exists():
                ct, _created = ContentType.objects.get_or_create(app_label=app_label, model=model_name)
                for row in rows:
                    row.content_type_id, row.object_id = ct.pk, getattr(row, f"{field}_id")
                    row.save(update_fields=["content_type", "object_id"])


def to_foreign_keys(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    for name in ("Status", "Change"):
        model = apps.get_model("translations", name)
        for field, (app_label, model_name) in OLD.items():
            ct = ContentType.objects.filter(app_label=app_label, model=model_name).first()
            if ct is not None:
                model.objects.filter(content_type=ct).update(**{f"{field}_id": models.F("object_id")})


def content_type_field():
    return models.ForeignKey(
        blank=True,
        null=True,
        on_delete=django.db.models.deletion.CASCADE,
        related_name="+",
        to="contenttypes.contenttype",
        verbose_name="of",
    )


class Migration(migrations.Migration):
    dependencies = [
        ("contenttypes", "0002_remove_content_type_name"),
        ("ipg", "0005_former_keys"),
        ("translations", "0009_status_remark"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="change", name="change_of_a_paragraph_a_term_or_a_question"),
        migrations.RemoveConstraint(model_name="status", name="one_status_per_term_language"),
        migrations.RemoveConstraint(model_name="status", name="one_status_per_question_language"),
        migrations.RemoveConstraint(model_name="status", name="status_of_a_paragraph_a_term_or_a_question"),
        migrations.AddField(model_name="change", name="content_type", field=content_type_field()),
        migrations.AddField(
            model_name="change",
            name="object_id",
            field=models.PositiveIntegerField(blank=True, null=True, verbose_name="object id"),
        ),
        migrations.AddField(model_name="status", name="content_type", field=content_type_field()),
        migrations.AddField(
            model_name="status",
            name="object_id",
            field=models.PositiveIntegerField(blank=True, null=True, verbose_name="object id"),
        ),
        migrations.RunPython(to_content_types, to_foreign_keys),
        migrations.RemoveField(model_name="change", name="question"),
        migrations.RemoveField(model_name="change", name="term"),
        migrations.RemoveField(model_name="status", name="question"),
        migrations.RemoveField(model_name="status", name="term"),
        migrations.AlterField(
            model_name="change", name="field", field=models.CharField(max_length=20, verbose_name="field")
        ),
        migrations.AddConstraint(
            model_name="change",
            constraint=models.CheckConstraint(
                condition=models.Q(paragraph__isnull=False, content_type__isnull=True, object_id__isnull=True)
                | models.Q(paragraph__isnull=True, content_type__isnull=False, object_id__isnull=False),
                name="change_of_a_paragraph_or_another_object",
            ),
        ),
        migrations.AddConstraint(
            model_name="status",
            constraint=models.UniqueConstraint(
                condition=models.Q(content_type__isnull=False),
                fields=("content_type", "object_id", "language"),
                name="one_status_per_object_language",
            ),
        ),
        migrations.AddConstraint(
            model_name="status",
            constraint=models.CheckConstraint(
                condition=models.Q(paragraph__isnull=False, content_type__isnull=True, object_id__isnull=True)
                | models.Q(paragraph__isnull=True, content_type__isnull=False, object_id__isnull=False),
                name="status_of_a_paragraph_or_another_object",
            ),
        ),
    ]
