"""The picture a chat app shows for a shared paragraph: 1200×630 PNG, drawn on the server with Pillow.

Drawn when it is first asked for, once: the first request for a picture not yet stored takes the picture's lock
(a file lock, held by one drawer at a time across threads and processes), draws it and stores it; the others asking
meanwhile wait for it (at most DRAWER_WAIT seconds, then 503 with Retry-After) and are served the stored file. Nothing
else draws: a load of content/ or an edit never waits for pictures. The file's name holds a digest of everything
drawn (text, title, penalty, language), so an edit of any of them makes a new picture, drawn when asked for; the
earlier one is removed then. The picture is a palette PNG (a few ramps between the card's colours, which is all
that anti-aliased text on flat colours holds): a third of the bytes of a true-colour one, the same look.
The CJK font is Noto Sans CJK (Debian's fonts-noto-cjk, which `make serve` installs), found with fc-match or at
Debian's path.
"""

import fcntl
import functools
import hashlib
import io
import json
import logging
import os
import re
import shutil
import subprocess
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from PIL import Image, ImageColor, ImageDraw, ImageFont

from ipgsite.ipg.text import CJK

WIDTH, HEIGHT = 1200, 630
MARGIN = 64
# Bump when the drawing changes, so that every picture is drawn again.
DRAWING = 2
# How long a request waits for another that is drawing the same picture, before answering 503 (a picture takes
# some tens of milliseconds to draw).
DRAWER_WAIT = 5.0
RETRY_AFTER = 2
KNOWN_FONT_PATHS = [
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
]
# The face of the collection that draws Han characters as readers of each language expect them.
FACES = {"en": "Noto Sans CJK SC", "zh-hans": "Noto Sans CJK SC", "ja": "Noto Sans CJK JP"}
INK, PAPER, BAND, BAND_INK, MUTED = "#1b1b1b", "#ffffff", "#1d3557", "#ffffff", "#5c6370"
# A run of these is broken anywhere; other text only at spaces.
WIDE = CJK  # a CJK character (letter, punctuation, full-width form): drawn wide, and breakable anywhere
CJK_CHAR = f"[{WIDE}]"
TOKENS = re.compile(rf"{CJK_CHAR}|[^\s{WIDE}]+\s*|\s+")


logger = logging.getLogger(__name__)


class FontMissing(ImproperlyConfigured):
    pass


class Busy(Exception):
    """Another request has been drawing this picture for longer than DRAWER_WAIT."""


@dataclass(frozen=True)
class Card:
    """What a preview picture shows."""

    code: str
    number: str
    key: str
    title: str
    penalty: str  # its label in the card's language, or ""
    text: str  # plain text, or the notice that it is missing
    site: str

    @property
    def digest(self):
        drawn = json.dumps([DRAWING, self.code, self.number, self.key, self.title, self.penalty, self.text, self.site])
        return hashlib.sha256(drawn.encode()).hexdigest()[:16]

    @property
    def prefix(self):
        return f"{self.number}-{self.key}-{self.code}-"

    @property
    def filename(self):
        return f"{self.prefix}{self.digest}.png"


def font_file():
    """settings.PREVIEW_FONT, else what fc-match finds for Noto Sans CJK, else Debian's path."""
    configured = getattr(settings, "PREVIEW_FONT", "")
    if configured:
        if not Path(configured).is_file():
            raise FontMissing(f"PREVIEW_FONT names {configured}, which is not a file.")
        return configured
    return _found_font()


@functools.lru_cache(maxsize=1)
def _found_font():
    if shutil.which("fc-match"):
        try:
            found = subprocess.run(
                ["fc-match", "-f", "%{file}", "Noto Sans CJK SC:style=Regular"],
                capture_output=True,
                text=True,
                timeout=10,
                check=False,
            ).stdout.strip()
        except (OSError, subprocess.TimeoutExpired):
            found = ""
        if found and "NotoSansCJK" in Path(found).name and Path(found).is_file():
            return found
    for path in KNOWN_FONT_PATHS:
        if Path(path).is_file():
            return path
    raise FontMissing(
        "No CJK font for link preview pictures: install Debian's fonts-noto-cjk (`make fonts`, which `make serve` "
        "runs) or set PREVIEW_FONT to a font file with Chinese and Japanese characters."
    )


def font(code, size):
    return _face(font_file(), code, size)


@functools.lru_cache(maxsize=32)
def _face(path, code, size):
    wanted = FACES.get(code, FACES["en"])
    first = None
    for index in range(12):  # a .ttc holds several faces; a plain font file has one
        try:
            face = ImageFont.truetype(path, size, index=index)
        except OSError:
            break
        first = first or face
        if face.getname()[0] == wanted:
            return face
    if first is None:
        raise FontMissing(f"{path} is not a font file Pillow can read.")
    return first


def wrap(text, face, width, max_lines):
    """Lines of `text` no wider than `width`; CJK breaks between any two characters, other text at spaces."""
    lines, line = [], ""
    for token in TOKENS.findall(text):
        if face.getlength(line + token.rstrip()) <= width:
            line += token
            continue
        if line.strip():
            lines.append(line.rstrip())
        line = token.lstrip()
        while face.getlength(line.rstrip()) > width:  # a word wider than the line
            cut = len(line)
            while cut > 1 and face.getlength(line[:cut]) > width:
                cut -= 1
            lines.append(line[:cut])
            line = line[cut:]
    if line.strip():
        lines.append(line.rstrip())
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        last = whole = lines[-1]
        while last and face.getlength(last + "…") > width:
            last = last[:-1]
        if len(last) < len(whole) and not re.match(CJK_CHAR, whole[len(last)]) and " " in last:
            last = last.rsplit(" ", 1)[0]  # end at a word, not inside one
        lines[-1] = last.rstrip() + "…"
    return lines


def draw(card):
    """The picture as PNG bytes."""
    out = io.BytesIO()
    # Every pixel is a blend of two of the card's colours: mapped to the nearest step of its ramp, it is a palette
    # PNG of a third the bytes, within a few levels of the true-colour one. (optimize=True: 20x the time, 2% less.)
    in_colour(card).quantize(palette=_palette(), dither=Image.Dither.NONE).save(out, "PNG")
    return out.getvalue()


def in_colour(card):
    """The picture as drawn, in true colour (RGB)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    pen = ImageDraw.Draw(image)
    inner = WIDTH - 2 * MARGIN
    band = 150
    pen.rectangle([0, 0, WIDTH, band], fill=BAND)
    title_face = font(card.code, 40)
    title_lines = wrap(f"{card.number}  {card.title}", title_face, inner, 2)
    y = 28 if len(title_lines) > 1 else 50
    for line in title_lines:
        pen.text((MARGIN, y), line, font=title_face, fill=BAND_INK)
        y += 50
    y = band + 36
    if card.penalty:
        small = font(card.code, 30)
        pen.text((MARGIN, y), card.penalty, font=small, fill=BAND)
        y += 56
    body = font(card.code, 36)
    for line in wrap(card.text, body, inner, (HEIGHT - 70 - y) // 52):
        pen.text((MARGIN, y), line, font=body, fill=INK)
        y += 52
    footer = font(card.code, 26)
    pen.text((MARGIN, HEIGHT - 54), f"{card.site} · ¶ {card.key}", font=footer, fill=MUTED)
    return image


# Anti-aliased text on a flat colour is a blend of two colours: the title's ink on the band, the penalty's and the
# text's and the footer's on paper. STEPS shades of each pair cover them to within a few levels.
RAMPS = [(BAND, BAND_INK), (PAPER, BAND), (PAPER, INK), (PAPER, MUTED)]
STEPS = 16


@functools.cache
def _palette():
    colours = []
    for start, end in RAMPS:
        start, end = ImageColor.getrgb(start), ImageColor.getrgb(end)
        for step in range(STEPS):
            shade = tuple(round(a + (b - a) * step / (STEPS - 1)) for a, b in zip(start, end, strict=True))
            if shade not in colours:
                colours.append(shade)
    palette = Image.new("P", (1, 1))
    palette.putpalette([value for colour in colours for value in colour])
    return palette


DIGEST = re.compile(r"[0-9a-f]{16}")


def open_drawn(number, key, code, digest):
    """The stored picture that a picture URL's `?v=` names (the digest of what it shows), open; None if there
    is none, or `digest` is no digest."""
    if not DIGEST.fullmatch(digest or ""):
        return None
    try:
        return (Path(settings.PREVIEW_IMAGE_DIR) / f"{number}-{key}-{code}-{digest}.png").open("rb")
    except FileNotFoundError:
        return None


def open_picture(card, wait=None):
    """The picture as an open binary file: its stored file, else drawn now by this request alone (and stored).

    Whoever finds no file takes the picture's lock: the first draws; the others wait for it and are served what it
    stored, or raise Busy after `wait` seconds (DRAWER_WAIT). A file, once open, reads whole even if another process
    removes it (a picture of a newer text replacing it), so a picture stored when asked for is always served."""
    stored = _open_stored(card)
    if stored is not None:
        return stored
    with one_drawer(card, DRAWER_WAIT if wait is None else wait):
        stored = _open_stored(card)  # drawn by another while this one waited
        if stored is not None:
            return stored
        return io.BytesIO(store(card))


def _open_stored(card):
    try:
        return (Path(settings.PREVIEW_IMAGE_DIR) / card.filename).open("rb")
    except FileNotFoundError:
        return None


@contextmanager
def one_drawer(card, wait):
    """Held by one thread of one process at a time for the pictures of `card`'s paragraph in its language (a lock
    file per paragraph and language, `.locks/` in PREVIEW_IMAGE_DIR, released when its holder ends, even killed);
    Busy after `wait` seconds."""
    locks = Path(settings.PREVIEW_IMAGE_DIR) / ".locks"
    locks.mkdir(parents=True, exist_ok=True)
    handle = os.open(locks / card.prefix.rstrip("-"), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise Busy(card.filename) from None
                time.sleep(0.01)
        yield
    finally:
        os.close(handle)  # and the lock with it


def store(card):
    """Draw the picture and store it under its name (atomically); pictures of earlier texts are removed."""
    directory = Path(settings.PREVIEW_IMAGE_DIR)
    path = directory / card.filename
    started = time.perf_counter()
    data = draw(card)
    logger.info("Drew %s (%d bytes) in %.0f ms", card.filename, len(data), (time.perf_counter() - started) * 1000)
    directory.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=".drawing-", suffix=".png")
    with os.fdopen(handle, "wb") as out:
        out.write(data)
    os.replace(temporary, path)  # atomic: a reader never sees half a file
    for old in directory.glob(f"{card.prefix}*.png"):
        if old.name != card.filename and old.name[len(card.prefix) :].count("-") == 0:
            old.unlink(missing_ok=True)
    return data
