# A occurrence was stored as offsets into the text of the render it was found in; it is now stored as its words and which
# occurrence of them it is in the linkable text (ipgsite.ipg.spans), which no change of the renderer shifts. Each
# stored occurrence is numbered from its offset against the text as rendered now; one whose words are no longer there
# was never shown, and goes (the next write or load finds it again, if the text still has it).

from django.db import migrations, models


def number_from_offsets(apps, schema_editor):
    from ipgsite.ipg.languages import field_suffix
    from ipgsite.ipg.markup import render_markdown
    from ipgsite.ipg.spans import nth_at

    model = apps.get_model("terms", "occurrence")
    gone = []
    for row in model.objects.select_related("paragraph", "note").iterator():
        obj, field = (row.note, "body") if row.note_id else (row.paragraph, "text")
        value = getattr(obj, f"{field}_{field_suffix(row.language)}") or ""
        row.nth = nth_at(render_markdown(value), row.text, row.start)
        if row.nth is None:
            gone.append(row.pk)
        else:
            row.save(update_fields=["nth"])
    model.objects.filter(pk__in=gone).delete()


class Migration(migrations.Migration):

    dependencies = [
        ('terms', '0003_term_and_occurrence_named'),
    ]

    operations = [
        migrations.AlterModelOptions(
            name='occurrence',
            options={'ordering': ['paragraph__section__order', 'paragraph__order', 'note__order', 'language', 'pk'], 'verbose_name': 'occurrence', 'verbose_name_plural': 'occurrences'},
        ),
        migrations.AddField(
            model_name='occurrence',
            name='nth',
            field=models.PositiveIntegerField(default=0, help_text='Which occurrence of these words in the text it is, outside links and code: 0 for the first.', verbose_name='occurrence of the words'),
            preserve_default=False,
        ),
        migrations.RunPython(number_from_offsets, migrations.RunPython.noop),
        migrations.RemoveField(
            model_name='occurrence',
            name='start',
        ),
        migrations.RemoveField(
            model_name='occurrence',
            name='end',
        ),
    ]
