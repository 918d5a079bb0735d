"""A web page saved from a browser (or HTML made from Markdown): its main content only, as blocks.

The page is parsed with lxml; its main content is the page's `<main>` or `<article>`, else the wiki's or blog's
content element (DokuWiki's `div.page`, WordPress's `.entry-content`), else what readability-lxml picks as the
article. Navigation, contents lists, "back to the IPG index" links, sidebars and footers are dropped. Headings,
paragraphs (a `<br>` is a line break), list items (an ordered list's number is the item's label), tables (a row's
cells) and boxes (a blockquote, a box or alert `div`: commentary) are kept as structure.
"""

import re

import lxml.html
from lxml import etree

from .blocks import BOX, HEADING, ITEM, PARAGRAPH, ROW, Block

SKIPPED = {
    "script",
    "style",
    "noscript",
    "template",
    "nav",
    "header",
    "footer",
    "aside",
    "form",
    "button",
    "select",
    "input",
    "textarea",
    "iframe",
    "svg",
    "menu",
    "head",
    "title",
    "meta",
    "link",
    "img",
    "figure",
}
CHROME = re.compile(
    r"(?:^|[\s_-])(?:toc|nav|navbar|navigation|menu|sidebar|side|breadcrumbs?|footer|header|pagetools|siteinfo|"
    r"site-info|comments?|share|sharing|social|related|widgets?|skip|tags|pager|pagination|trace|youarehere|"
    r"docinfo|license|banner|masthead|sitetools|usertools|postmeta|entry-meta|byline|screen-reader-text)(?:$|[\s_-])",
    re.IGNORECASE,
)
BOXLIKE = re.compile(
    r"(?:^|[\s_-])(?:box|alert|note|notice|info|tip|warning|callout|commentary|annotation|admonition|memo|"
    r"kaisetsu|comment-box)(?:$|[\s_-])",
    re.IGNORECASE,
)
MAIN = (
    "//main",
    "//*[@role='main']",
    "//article",
    "//*[@id='dokuwiki__content']//div[contains(concat(' ', normalize-space(@class), ' '), ' page ')]",
    "//*[contains(concat(' ', normalize-space(@class), ' '), ' entry-content ')]",
    "//*[contains(concat(' ', normalize-space(@class), ' '), ' post-content ')]",
    "//*[@id='content']",
)
HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
BLOCKS = HEADINGS | {
    "html",
    "body",
    "p",
    "div",
    "ul",
    "ol",
    "li",
    "table",
    "blockquote",
    "pre",
    "section",
    "article",
    "main",
    "dl",
    "dt",
    "dd",
    "hr",
    "tr",
    "td",
    "th",
    "tbody",
    "thead",
    "details",
}
SPACE = re.compile(r"[ \t\r\n\f]+")


def read(data, whole=False, newlines=False):
    """The blocks of a page's main content (`whole`: of the whole body, for HTML made from Markdown, where
    `newlines` keeps the source's line breaks as breaks)."""
    try:
        root = lxml.html.document_fromstring(data)
    except (etree.ParserError, ValueError):
        return []
    body = root if whole else main_content(root)
    walker = Walker(newlines)
    walker.walk(body)
    return walker.blocks


def main_content(root):
    for element in list(root.iter()):
        if element.getparent() is not None and element.tag not in ("html", "body") and _skipped(element):
            element.drop_tree()  # navigation, menus, sidebars, footers: never the content, whatever picks it
    for path in MAIN:
        found = [element for element in root.xpath(path) if _text_length(element) > 20]
        if found:
            return max(found, key=_text_length) if len(found) > 1 else found[0]
    return _readability(root)


def _readability(root):
    """The article readability-lxml finds, or the body where it finds none."""
    from readability import Document
    from readability.readability import Unparseable

    try:
        summary = Document(lxml.html.tostring(root, encoding="unicode")).summary(html_partial=True)
    except (Unparseable, etree.ParserError, ValueError):
        return root
    return lxml.html.fragment_fromstring(summary, create_parent="div")


def _text_length(element):
    return len("".join(element.itertext()).strip())


def _skipped(element):
    tag = element.tag if isinstance(element.tag, str) else ""
    if not tag or tag in SKIPPED:
        return True
    if element.get("hidden") is not None or element.get("aria-hidden") == "true":
        return True
    if element.get("role") in ("navigation", "banner", "contentinfo", "search", "complementary"):
        return True
    names = f"{element.get('class', '')} {element.get('id', '')}"
    return bool(CHROME.search(names)) and not BOXLIKE.search(names)


def _is_box(element):
    if element.tag == "blockquote":
        return True
    return element.tag in ("div", "section", "aside", "p") and bool(
        BOXLIKE.search(f"{element.get('class', '')} {element.get('id', '')}")
    )


class Walker:
    def __init__(self, newlines=False):
        self.blocks = []
        self.newlines = newlines
        self.count = 0

    def add(self, kind, text, **values):
        text = text.strip()
        if text or values.get("cells"):
            self.count += 1
            self.blocks.append(Block(kind, text, line=self.count, **values))

    def walk(self, element):
        if _skipped(element) and element.tag not in ("html", "body"):
            return
        tag = element.tag
        if tag in HEADINGS:
            self.add(HEADING, self.inline(element), level=int(tag[1]))
        elif _is_box(element):
            self.add(BOX, self.box_text(element))
        elif tag in ("ul", "ol"):
            self.list(element)
        elif tag == "table":
            for row in element.iter("tr"):
                cells = tuple(self.inline(cell).strip() for cell in row if cell.tag in ("td", "th"))
                if any(cells):
                    self.add(ROW, " ".join(c for c in cells if c), cells=cells)
        elif tag == "pre":
            self.add(PARAGRAPH, "".join(element.itertext()))
        elif tag == "p" or not any(_is_block(child) for child in element):
            if _is_navigation(element):
                return
            self.add(PARAGRAPH, self.inline(element))
        else:
            self.mixed(element)

    def mixed(self, element):
        """An element holding blocks and loose text: each run of loose text is a paragraph."""
        run = [element.text or ""]
        for child in element:
            if _is_block(child):
                self.add(PARAGRAPH, self.joined(run))
                run = []
                self.walk(child)
            elif not _skipped(child):
                run.append(self.inline(child, tail=False))
            run.append(child.tail or "")
        self.add(PARAGRAPH, self.joined(run))

    def list(self, element):
        number = int(element.get("start", "1")) if element.get("start", "1").isdigit() else 1
        for item in element:
            if item.tag != "li":
                continue
            nested = [child for child in item if child.tag in ("ul", "ol")]
            label = str(number) if element.tag == "ol" else ""
            text = self.inline(item, skip=nested)
            if _is_navigation(item):
                continue
            self.add(ITEM, text, label=label)
            number += 1
            for child in nested:
                self.list(child)

    def box_text(self, element):
        parts = []
        for child in element:
            if _is_block(child):
                parts.append(self.inline(child))
        loose = self.joined([element.text or ""] + [(c.tail or "") for c in element])
        if loose:
            parts.insert(0, loose)
        if not parts:
            parts = [self.inline(element)]
        return "\n\n".join(part.strip() for part in parts if part.strip())

    def inline(self, element, tail=False, skip=()):
        pieces = []
        self._pieces(element, pieces, skip)
        if tail and element.tail:
            pieces.append(element.tail)
        return self.joined(pieces)

    def _pieces(self, element, pieces, skip):
        if element.tag == "br":
            pieces.append("\n")
            return
        if isinstance(element.tag, str) and element.tag in ("script", "style", "img", "svg", "button"):
            return
        pieces.append(element.text or "")
        for child in element:
            if child in skip:
                pieces.append(child.tail or "")
                continue
            if _is_block(child) and pieces and not pieces[-1].endswith("\n"):
                pieces.append("\n")
            self._pieces(child, pieces, skip)
            if _is_block(child):
                pieces.append("\n")
            pieces.append(child.tail or "")

    def joined(self, pieces):
        lines = "".join(pieces).split("\n") if self.newlines else _split_breaks(pieces)
        return "\n".join(SPACE.sub(" ", line).strip() for line in lines if line.strip())


def _split_breaks(pieces):
    """Text pieces joined, split only at the breaks `<br>` and blocks gave (source line ends are spaces)."""
    lines, current = [], []
    for piece in pieces:
        if piece == "\n":
            lines.append("".join(current))
            current = []
        else:
            current.append(piece)
    lines.append("".join(current))
    return lines


def _is_block(element):
    return isinstance(element.tag, str) and element.tag in BLOCKS


def _is_navigation(element):
    """A short paragraph or item that is all links, or links between bars: "2.2 … | Back to the IPG index | 2.4 …"."""
    text = SPACE.sub(" ", "".join(element.itertext())).strip()
    if not text or len(text) > 200:
        return False
    linked = sum(len(SPACE.sub(" ", "".join(a.itertext())).strip()) for a in element.iter("a"))
    return linked >= 0.7 * len(text) or (" | " in text and linked > 0)
