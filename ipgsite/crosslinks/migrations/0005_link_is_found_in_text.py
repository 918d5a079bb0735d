# A cross-link is now a `Found` (ipgsite.ipg.models), as a term's occurrence is: the same columns, so no table
# changes (sqlmigrate prints no SQL); the reverse accessors are named after the model, still paragraph.links.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('crosslinks', '0004_link_stored_as_words_not_offsets'),
        ('ipg', '0005_former_keys'),
    ]

    operations = [
        migrations.AlterField(
            model_name='link',
            name='note',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='%(class)ss', to='ipg.note', verbose_name='note'),
        ),
        migrations.AlterField(
            model_name='link',
            name='paragraph',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='%(class)ss', to='ipg.paragraph', verbose_name='paragraph'),
        ),
    ]
