"""Folding text for matching: NFKC and casefold, so that "Ｄａｒｋ" finds "Dark" and "ｶﾞ" finds "ガ".

The indexed text and the query are folded by the same function. Folding works on clusters (a
character with the marks that follow it) so that each folded character can be traced back to the
text it came from, to highlight a match in the original.
"""

import unicodedata

from ipgsite.ipg.text import HALFWIDTH_SOUND_MARKS

# Format and control characters (RTL marks, zero-width spaces, NUL, …), lone surrogates, private and unassigned
# code points: never part of a word.
DROPPED = {"Cc", "Cf", "Cs", "Co", "Cn"}
# Half-width katakana voicing marks: NFKC joins them to the character before.
JOINING = set(HALFWIDTH_SOUND_MARKS)


def _fold_cluster(cluster):
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", cluster).casefold())
    out = []
    for char in folded:
        if char.isspace():
            out.append(" ")
        elif unicodedata.category(char) not in DROPPED:
            out.append(char)
    return "".join(out)


_CHARS = {}  # char -> (its fold, whether it joins the character before it)


def _char(char):
    info = _CHARS.get(char)
    if info is None:
        info = (_fold_cluster(char), bool(unicodedata.combining(char)) or char in JOINING)
        if len(_CHARS) < 100_000:
            _CHARS[char] = info
    return info


def _folded_clusters(text):
    """(start, end, folded) for each character with the marks that join it."""
    infos = [_char(char) for char in text]
    start, length = 0, len(text)
    while start < length:
        end = start + 1
        while end < length and infos[end][1]:
            end += 1
        yield start, end, infos[start][0] if end == start + 1 else _fold_cluster(text[start:end])
        start = end


def fold(text):
    return "".join(piece for _start, _end, piece in _folded_clusters(text))


def fold_with_spans(text):
    """The folded text, and for each of its characters the (start, end) in `text` it came from."""
    folded, spans = [], []
    for start, end, piece in _folded_clusters(text):
        folded.append(piece)
        spans.extend([(start, end)] * len(piece))
    return "".join(folded), spans


def clean(text):
    """User input made safe to show and to store: no control or format characters, no lone surrogates."""
    text = text.encode("utf-8", "ignore").decode("utf-8") if _has_surrogates(text) else text
    kept = []
    for char in text:
        category = unicodedata.category(char)
        if char.isspace():
            kept.append(" ")
        elif category not in DROPPED:
            kept.append(char)
    return unicodedata.normalize("NFC", "".join(kept))


def _has_surrogates(text):
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False
