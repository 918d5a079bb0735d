from django.core.management.base import BaseCommand

from ...index import rebuild_index


class Command(BaseCommand):
    help = "Index every paragraph and note again, in every language, for search."

    def handle(self, *args, **options):
        count = rebuild_index()
        self.stdout.write(f"Indexed {count} entries (paragraphs and notes, per language).")
