# An occurrence was stored as offsets into the render it was found in; it is now stored as its words and which occurrence
# of them it is in the linkable text (ipgsite.ipg.spans), which no change of the renderer shifts: see
# ipgsite.ipg.derived.number_from_offsets.

from django.db import migrations, models


def number_from_offsets(apps, schema_editor):
    from ipgsite.ipg.derived import number_from_offsets

    number_from_offsets(apps.get_model("terms", "occurrence"))


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
