# An occurrence is now a `Found` (ipgsite.ipg.models), as a cross-link is: the same columns, so no table changes
# (sqlmigrate prints no SQL); only the text's help and the reverse accessors' name (paragraph.occurrences) do.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('ipg', '0005_former_keys'),
        ('terms', '0004_occurrence_stored_as_words_not_offsets'),
    ]

    operations = [
        migrations.AlterField(
            model_name='occurrence',
            name='note',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='%(class)ss', to='ipg.note', verbose_name='note'),
        ),
        migrations.AlterField(
            model_name='occurrence',
            name='paragraph',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='%(class)ss', to='ipg.paragraph', verbose_name='paragraph'),
        ),
        migrations.AlterField(
            model_name='occurrence',
            name='text',
            field=models.CharField(help_text='The words of the mention, as the text has them.', max_length=300, verbose_name='text'),
        ),
    ]
