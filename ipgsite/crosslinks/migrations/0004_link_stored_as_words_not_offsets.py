# A link was stored as offsets into the render it was found in; it is now stored as its words and which occurrence
# of them it is in the linkable text (ipgsite.ipg.spans), which no change of the renderer shifts: see
# ipgsite.ipg.derived.number_from_offsets.

from django.db import migrations, models


def number_from_offsets(apps, schema_editor):
    from ipgsite.ipg.derived import number_from_offsets

    number_from_offsets(apps.get_model("crosslinks", "link"))


class Migration(migrations.Migration):

    dependencies = [
        ('crosslinks', '0003_interface_names_translated'),
    ]

    operations = [
        migrations.AlterModelOptions(
            name='link',
            options={'ordering': ['paragraph__section__order', 'paragraph__order', 'note__order', 'language', 'pk'], 'verbose_name': 'cross-link', 'verbose_name_plural': 'cross-links'},
        ),
        migrations.AddField(
            model_name='link',
            name='nth',
            field=models.PositiveIntegerField(default=0, help_text='Which occurrence of these words in the text it is, outside links and code: 0 for the first.', verbose_name='occurrence of the words'),
            preserve_default=False,
        ),
        migrations.RunPython(number_from_offsets, migrations.RunPython.noop),
        migrations.RemoveField(
            model_name='link',
            name='start',
        ),
        migrations.RemoveField(
            model_name='link',
            name='end',
        ),
    ]
