"""The documents translators hold, read: one reader per kind of file, each turning the file into the same blocks
(`ipgsite.documents.blocks`: a heading, a paragraph, a list item, a box, a table row or a line, with where it came
from). The importer (`ipgsite.importing`) takes it from there; this package imports nothing of the site.

| kind | files | library |
|---|---|---|
| text | a paste, `.txt` (DokuWiki source, a Markdown paste and a tab-separated table are recognised) | — |
| PDF | `.pdf` | pdfminer.six, with its layout analysis |
| web page | `.html`, `.htm` | lxml, with readability-lxml for the main content |
| Word | `.docx` | python-docx |
| Markdown | `.md` | markdown (the site's own) |
| table | `.tsv`, `.csv` | the standard library's csv |

A file is refused, with a message that says why, before any work: over `MAX_BYTES` (checked before it is read),
empty, not UTF-8 (the text kinds), or not a file of its kind.
"""

from dataclasses import asdict

from django.core import signing
from django.utils.translation import gettext as _

from . import docx, html, markdown, pdf, table, text
from .blocks import Block, Unreadable, normalise

MAX_BYTES = 4_000_000  # a whole IPG, as a PDF with its fonts, is well under 2 MB
KINDS = {
    ".pdf": "pdf",
    ".html": "html",
    ".htm": "html",
    ".xhtml": "html",
    ".docx": "docx",
    ".md": "markdown",
    ".markdown": "markdown",
    ".txt": "text",
    ".text": "text",
    ".tsv": "table",
    ".tab": "table",
    ".csv": "table",
}
ACCEPTED = ", ".join(sorted(KINDS))


def too_large(size, name="The document"):
    """The message for a file over the limit, or "" for one within it."""
    if size <= MAX_BYTES:
        return ""
    return _(
        "%(name)s is %(size).1f MB; the importer takes documents up to %(limit)d MB (a whole IPG is well under 2 MB)."
    ) % {
        "name": name,
        "size": size / 1_000_000,
        "limit": MAX_BYTES // 1_000_000,
    }


def kind_of(name, data):
    """The kind of a file, by its name's ending, else by its first bytes; "text" for a paste."""
    name = (name or "").lower()
    for ending, kind in KINDS.items():
        if name.endswith(ending):
            return kind
    head = data[:1024].lstrip().lower()
    if head.startswith(b"%pdf-"):
        return "pdf"
    if head.startswith(b"pk\x03\x04"):
        return "docx"
    if head.startswith((b"<!doctype html", b"<html")) or b"<body" in head:
        return "html"
    return "text"


def read(data, name=""):
    """The blocks of a file's bytes: (kind, blocks). Raises Unreadable."""
    problem = too_large(len(data), name or "The document")
    if problem:
        raise Unreadable(problem)
    if not data.strip():
        raise Unreadable(_("%(name)s is empty.") % {"name": name or _("The document")})
    kind = kind_of(name, data)
    if kind == "pdf":
        blocks = pdf.read(data)
    elif kind == "docx":
        blocks = docx.read(data)
    elif kind == "html":
        blocks = html.read(data)
    else:
        decoded = decode(data, name)
        if kind == "markdown":
            blocks = markdown.read(decoded)
        elif kind == "table":
            blocks = table.read(decoded, name)
        else:
            blocks = text.read(decoded)
    if not any(block.text.strip() or any(cell.strip() for cell in block.cells) for block in blocks):
        raise Unreadable(_("%(name)s holds no text the importer can read.") % {"name": name or _("The document")})
    return kind, blocks


def read_text(raw):
    """The blocks of a paste (text already decoded)."""
    if not raw.strip():
        raise Unreadable(_("The text is empty."))
    problem = too_large(len(raw.encode("utf-8")), _("The text"))
    if problem:
        raise Unreadable(problem)
    return text.read(raw)


def decode(data, name=""):
    try:
        return normalise(data.decode("utf-8-sig"))
    except UnicodeDecodeError as error:
        raise Unreadable(
            _("%(name)s is not UTF-8 text (byte %(byte)d).") % {"name": name or _("The document"), "byte": error.start}
        ) from error


SALT = "ipgsite.importing.document"


def pack(blocks):
    """A document's blocks as a signed, compressed token: what a form carries from the proposal to its apply."""
    return signing.dumps([asdict(block) for block in blocks], salt=SALT, compress=True)


def unpack(token):
    """The blocks a token holds; Unreadable for a token this site did not sign."""
    try:
        return [Block(**values) for values in signing.loads(token, salt=SALT)]
    except (signing.BadSignature, TypeError, ValueError) as error:
        raise Unreadable(_("The document sent back is not the one proposed: choose it again.")) from error


__all__ = [
    "MAX_BYTES",
    "Unreadable",
    "read",
    "read_text",
    "kind_of",
    "too_large",
    "pack",
    "unpack",
    "KINDS",
    "ACCEPTED",
]
