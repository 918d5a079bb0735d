from django.core.management.base import BaseCommand, CommandError

from ipgsite.caching import vcl


class Command(BaseCommand):
    help = (
        "Prints a VCL for Varnish 7 in front of the site, made from its settings and URLs: public pages kept with "
        "the cookies and query parameters they do not read dropped, signed-in readers and the admin passed, purges "
        "with EDGE_PURGE_TOKEN or from EDGE_PURGERS. Warns (on stderr) when purges would be refused or open to the "
        "readers behind a TLS proxy."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--backend",
            action="append",
            required=True,
            metavar="HOST:PORT",
            help="a gunicorn host; repeat it for several (round robin, each probed)",
        )

    def handle(self, *args, **options):
        try:
            backends = [vcl.Backend.parse(value) for value in options["backend"]]
        except ValueError as error:
            raise CommandError(str(error)) from None
        if len(set(backends)) != len(backends):
            raise CommandError("A backend is named twice.")
        command = "manage.py varnishvcl " + " ".join(f"--backend {value}" for value in options["backend"])
        try:
            text = vcl.render(backends, command=command)
            warnings = vcl.purge_warnings()
        except ValueError as error:
            raise CommandError(str(error)) from None
        for warning in warnings:
            self.stderr.write(self.style.WARNING(f"Warning: {warning}"))
        self.stdout.write(text, ending="")
