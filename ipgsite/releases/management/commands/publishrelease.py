from django.core.management.base import BaseCommand, CommandError

from ...models import parse_date
from ...publishing import PublishError, publish


class Command(BaseCommand):
    help = (
        "Publish the database's current IPG as the release effective on DATE (YYYY-MM-DD): every section's title, "
        "penalty, paragraphs and notes in every language are frozen. exportcontent then writes content/releases/."
    )

    def add_arguments(self, parser):
        parser.add_argument("date", help="the effective date, e.g. 2024-09-23")
        parser.add_argument("--title", default="", help="the release's English title (optional)")

    def handle(self, *args, date, title, **options):
        effective = parse_date(date)
        if effective is None:
            raise CommandError(f"{date!r} is not a date written as YYYY-MM-DD, e.g. 2024-09-23.")
        try:
            release = publish(effective, title=title)
        except PublishError as exc:
            raise CommandError(f"Nothing was published. {exc}") from None
        self.stdout.write(
            f"Published release {release.date.isoformat()}: {release.sections.count()} sections frozen. "
            "Run exportcontent to write it to content/releases/."
        )
