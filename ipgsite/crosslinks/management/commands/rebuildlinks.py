from django.core.management.base import BaseCommand

from ...build import rebuild_links


class Command(BaseCommand):
    help = "Find every mention of a section (by name, alias or number) and of the MTR in the text again."

    def handle(self, *args, **options):
        count = rebuild_links()
        self.stdout.write(f"Stored {count} links.")
