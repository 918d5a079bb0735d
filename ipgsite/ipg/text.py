"""Text as every app reads it: the characters of Chinese and Japanese, names found as whole words, and the text of
rendered HTML piece by piece.

This is the core (`ipgsite.ipg`): it imports no other app of the site, and the apps that find things in the text
(cross-links, terms, search, the finder, the importer, release diffs, the preview pictures) take from here what
they share, rather than each keeping its own copy.
"""

import html
import re
from dataclasses import dataclass

# Chinese and Japanese characters ------------------------------------------------------------------------------------
#
# Ranges of code points, to be put in a regular expression's character class (f"[{HAN}]"). Every CJK range the site
# uses is defined here and nowhere else (tests/test_spans.py checks): an app that needs another set composes it
# from these pieces. The pieces follow Unicode's blocks; where a caller needs letters only, the pieces name the
# letters, the marks and the punctuation of a block apart.

# Han: the ideographs Chinese and Japanese share.
HAN_EXTENSION_A = "\u3400-\u4dbf"  # CJK Unified Ideographs Extension A
YIJING = "\u4dc0-\u4dff"  # Yijing hexagram symbols: not Han, but between Extension A and the unified block
HAN_UNIFIED = "\u4e00-\u9fff"  # CJK Unified Ideographs: 一 … 鿿
HAN_COMPATIBILITY = "\uf900-\ufaff"  # CJK Compatibility Ideographs
HAN_SUPPLEMENTARY = "\U00020000-\U0003ffff"  # planes 2 and 3: Extensions B and later, the compatibility supplement
HAN_BMP = HAN_EXTENSION_A + HAN_UNIFIED + HAN_COMPATIBILITY
HAN = HAN_BMP + HAN_SUPPLEMENTARY
ITERATION_MARK = "\u3005"  # 々, which repeats the Han character before it
IDEOGRAPHIC_LETTERS = ITERATION_MARK + "\u3006\u3007"  # 々 〆 〇: letters among the CJK punctuation

# Kana: the Japanese syllabaries.
HIRAGANA = "\u3041-\u3096"  # ぁ … ゖ
KANA_SOUND_MARKS = "\u3099-\u309c"  # the voiced and semi-voiced sound marks, combining and spacing: ゛ ゜
HIRAGANA_MARKS = "\u309d-\u309f"  # ゝ ゞ, and the ligature ゟ
KATAKANA = "\u30a1-\u30fa"  # ァ … ヺ
KATAKANA_MIDDLE_DOT = "\u30fb"  # ・, punctuation
KATAKANA_MARKS = "\u30fc-\u30ff"  # ー ヽ ヾ, and the ligature ヿ
KATAKANA_SMALL = "\u31f0-\u31ff"  # Katakana Phonetic Extensions: small ㇰ … ㇿ
KANA_BLOCKS = "\u3040-\u30ff"  # the Hiragana and Katakana blocks whole: letters, marks, ゠ and ・
HALFWIDTH_KATAKANA = "\uff66-\uff9d"  # ｦ … ﾝ
HALFWIDTH_SOUND_MARKS = "\uff9e\uff9f"  # ﾞ ﾟ, which NFKC joins to the letter before
HALFWIDTH_KANA = HALFWIDTH_KATAKANA + HALFWIDTH_SOUND_MARKS
KANA = KANA_BLOCKS + KATAKANA_SMALL + HALFWIDTH_KANA  # any kana: a text with one is Japanese

# The other scripts and signs of CJK text.
CJK_RADICALS = "\u2e80-\u2fdf"  # CJK Radicals Supplement, Kangxi Radicals
CJK_PUNCTUATION = "\u3000-\u303f"  # CJK Symbols and Punctuation: the ideographic space, 、。「」〔〕, 々 〆 〇
BOPOMOFO = "\u3100-\u312f"
HANGUL_JAMO = "\u3130-\u318f"  # Hangul Compatibility Jamo
KANBUN_AND_STROKES = "\u3190-\u31ef"  # Kanbun, Bopomofo Extended, CJK Strokes
HANGUL = "\uac00-\ud7a3"  # Hangul syllables
CJK_COMPATIBILITY_FORMS = "\ufe30-\ufe4f"  # vertical forms of punctuation: ︰ … ﹏
FULLWIDTH_FORMS = "\uff00-\uffef"  # Halfwidth and Fullwidth Forms: Ａ ！ ｶ ￥ …
CJK_BMP = "\u2e80-\u9fff"  # every block from the radicals to the unified ideographs, kana and enclosed forms included

# The letters of CJK scripts, whose words are not separated by spaces (not their punctuation: ・ 「」).
CJK_LETTERS = (
    IDEOGRAPHIC_LETTERS
    + HIRAGANA
    + HIRAGANA_MARKS
    + KATAKANA
    + KATAKANA_MARKS
    + KATAKANA_SMALL
    + HALFWIDTH_KATAKANA
    + BOPOMOFO
    + HANGUL_JAMO
    + HAN
    + HANGUL
)
# Every character of CJK text that stands on its own, a word or not: letters, punctuation, full-width forms.
CJK = (
    CJK_RADICALS
    + CJK_PUNCTUATION
    + KANA_BLOCKS
    + BOPOMOFO
    + HANGUL_JAMO
    + KANBUN_AND_STROKES
    + KATAKANA_SMALL
    + HAN
    + CJK_COMPATIBILITY_FORMS
    + FULLWIDTH_FORMS
)

HAN_CHAR = re.compile(f"[{HAN}]")
KANA_CHAR = re.compile(f"[{KANA}]")
CJK_LETTER = re.compile(f"[{CJK_LETTERS}]")  # a CJK character, wherever the site asks whether a character is one
CJK_RUN = re.compile(f"[{CJK_LETTERS}]+")


def is_cjk(char):
    return CJK_LETTER.fullmatch(char) is not None


# Names as whole words -----------------------------------------------------------------------------------------------

LATIN_WORD = re.compile(r"[A-Za-z0-9]")  # a character a Latin name must not be glued to


def any_spacing(text):
    """`text` as a regular expression in which any run of whitespace matches any other run."""
    return r"\s+".join(re.escape(word) for word in text.split())


def word_pattern(name, dashes="", hyphen_joins=False):
    """A regular expression that finds `name` in a text: a Latin name as whole words, a CJK name anywhere.

    Any run of whitespace in the name matches any run in the text. With `dashes` (the characters that count as a
    dash), a run of them in the name, with or without spaces around it, matches any run of them, with any spacing
    ("Game Play Error — Hidden Card Error" finds "Game Play Error ─ Hidden Card Error" and "Error-Hidden").
    A name that starts (ends) with a Latin letter or digit does not match after (before) another one: "hand" is
    not in "handle". With `hyphen_joins`, a hyphen joins two words into one, so neither is a word of its own:
    "down" is not in "face-down".

    Case is the caller's to choose: compile with re.IGNORECASE to ignore it.
    """
    if dashes:
        dash = rf"\s*[{re.escape(dashes)}]+\s*"
        pattern = dash.join(any_spacing(part) for part in re.split(dash, name.strip()))
    else:
        pattern = any_spacing(name)
    if LATIN_WORD.match(name[:1]):
        pattern = r"(?<![A-Za-z0-9])" + (r"(?<![A-Za-z0-9]-)" if hyphen_joins else "") + pattern
    if LATIN_WORD.match(name[-1:]):
        pattern += r"(?![A-Za-z0-9])" + (r"(?!-[A-Za-z0-9])" if hyphen_joins else "")
    return pattern


# The text of rendered HTML --------------------------------------------------------------------------------------------
#
# Offsets count characters of the unescaped text, across all pieces. Text inside a link, code or a citation is not
# linkable: nothing is found or marked there.

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
