from ...inbound import ImportCommand
from ...xliff import FORMAT


class Command(ImportCommand):
    help = (
        "Import the targets of an XLIFF 1.2 file exported by exportxliff through the write path, as USERNAME and with "
        "their rights, in one transaction, with history. All or nothing: a unit whose source or target changed on "
        "the site since the export, or a language the user may not edit, changes nothing; each is reported."
    )
    format = FORMAT
