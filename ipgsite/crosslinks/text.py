"""The text of rendered (sanitized) HTML, piece by piece, with offsets that finding and linking mentions share.

Offsets count characters of the unescaped text, across all pieces, so a mention found once can be
linked again later on the same rendered HTML. Text inside an existing link, code or citation is not linkable.
"""

import html
import re
from dataclasses import dataclass

TAG = re.compile(r"(<[^>]*>)")
UNLINKABLE = {"a", "code", "cite"}
BLOCKS = {"p", "br", "li", "ul", "ol", "blockquote"}


@dataclass
class Piece:
    raw: str  # as it stands in the HTML: a tag, or escaped text
    text: str = ""  # the unescaped text ("" for a tag)
    offset: int = 0  # where `text` starts in the text of the whole fragment
    linkable: bool = False
    tag: str = ""  # the tag's name, for a tag

    @property
    def is_tag(self):
        return bool(self.tag)


def _tag_name(raw):
    words = raw.strip("</>").split()
    return words[0].lower() if words else "?"


def pieces(fragment):
    """Split sanitized HTML into tags and text pieces."""
    offset, open_unlinkable = 0, []
    for raw in TAG.split(str(fragment)):
        if not raw:
            continue
        if raw.startswith("<"):
            name = _tag_name(raw)
            if name in UNLINKABLE and not raw.endswith("/>"):
                if raw.startswith("</"):
                    if name in open_unlinkable:
                        open_unlinkable.remove(name)
                else:
                    open_unlinkable.append(name)
            yield Piece(raw=raw, tag=name)
            continue
        text = html.unescape(raw)
        yield Piece(raw=raw, text=text, offset=offset, linkable=not open_unlinkable)
        offset += len(text)


def plain_text(fragment):
    """The text a reader sees in an HTML fragment, with blocks separated and whitespace collapsed."""
    words = [" " if piece.tag in BLOCKS else piece.text for piece in pieces(fragment)]
    return " ".join("".join(words).split())
