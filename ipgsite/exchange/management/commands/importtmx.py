from ...inbound import ImportCommand
from ...tmx import FORMAT


class Command(ImportCommand):
    help = (
        "Import the target tuv of each tu of a TMX 1.4b file exported by exporttmx (tuid 2.3#example-c) through the "
        "write path, as USERNAME and with their rights, in one transaction, with history. All or nothing: a unit whose "
        "source changed on the site, or whose target changed since the revision in its x-ipg-revision prop, or a "
        "language the user may not edit, changes nothing; each is reported."
    )
    format = FORMAT
