"""Every public page type, the one list the tests that go through every page type share (axe, the Nu HTML checker, a
NUL in the parameters, section numbers that never break, `make screenshots`); and a small HTML tree for reading what
a page shows, with the standard library's parser."""

from dataclasses import dataclass
from html.parser import HTMLParser
from urllib.parse import urlsplit

RELEASE = "2024-09-23"  # the release content/releases/ holds


@dataclass(frozen=True)
class PageType:
    name: str  # what it is, as a file name (`make screenshots`)
    url: str
    status: int = 200
    numbers: bool = False  # shows section numbers (which never break across lines)
    reads: tuple = ()  # the query parameters it reads, besides those of its url

    @property
    def path(self):
        return urlsplit(self.url).path


# Each kind of page once, in the languages and states that differ in what they show: a page type added to the site
# is added here, and every test that walks the page types walks it.
PAGE_TYPES = [
    PageType("outline", "/en/", numbers=True),
    PageType("section", "/en/ipg/2.3/", numbers=True, reads=("langs", "release")),  # commentary, term marks, links
    PageType("section-ja", "/ja/ipg/2.3/"),
    PageType("section-missing", "/zh-hans/ipg/2.4/"),  # missing translations
    PageType("section-other-language", "/en/ipg/2.1/"),  # no text in the page's language
    PageType("section-stub", "/en/ipg/3.1/"),  # no text yet
    PageType("compare-2", "/ja/ipg/2.4/?langs=ja,en"),
    PageType("compare-3", "/en/ipg/2.3/?langs=en,zh-hans,ja"),
    PageType("section-release", f"/ja/ipg/2.3/?release={RELEASE}"),  # as a release froze it
    PageType("share", "/ja/ipg/2.3/example-c/", reads=("release", "langs")),  # one paragraph's page
    PageType("share-compare", "/en/ipg/2.3/example-b/?langs=zh-hans,ja,en"),
    PageType("penalties", "/ja/penalties/", numbers=True, reads=("penalty",)),  # the quick reference
    PageType("penalties-one", "/en/penalties/?penalty=warning"),
    PageType("search", "/en/search/", reads=("q", "language", "kind", "page")),  # the empty form
    PageType("search-results", "/en/search/?q=drew", numbers=True),  # a section's name, the finder's questions
    PageType("search-ja", "/ja/search/?q=%E6%89%8B%E6%9C%AD", numbers=True),
    PageType("search-cjk", "/ja/search/?q=%E5%85%AC%E9%96%8B"),
    PageType("search-filtered", "/ja/search/?q=%E8%A6%AA%E4%BF%A1&language=ja&kind=note"),
    PageType("search-nothing", "/en/search/?q=zzzzzz-nothing"),
    PageType("changes", "/en/changes/", reads=("release",)),  # the releases
    PageType("release", f"/zh-hans/changes/{RELEASE}/"),  # one release's changes
    PageType("404", "/en/ipg/9.9/", status=404),
    PageType("glossary", "/ja/glossary/", reads=("kind",)),  # the termbase
    PageType(
        "reading-list",  # with a section without text (4.8) and one that is not (9.9)
        "/zh-hans/list/?p=2.3:example-c&p=2.4:definition-1&p=4.8:x&p=9.9:x&langs=zh-hans,en",
        numbers=True,
        reads=("p",),
    ),
    PageType("quiz", "/en/quiz/", reads=("seed",)),  # its start
    PageType("quiz-answer", "/ja/quiz/?seed=5&a=2.3", numbers=True, reads=("chapter", "section", "a")),
    PageType("finder", "/en/finder/", numbers=True, reads=("langs",)),  # with its worked examples
    PageType("finder-step", "/en/finder/in-game/not-shown/"),
    PageType("finder-outcome", "/ja/finder/pre-game/other-error/", numbers=True),  # with what was ruled out
    PageType("offline", "/ja/offline/"),
    PageType(
        "quiz-offline", "/ja/quiz/offline/", numbers=True
    ),  # the quiz on one page, as offline  # what the service worker shows offline for a page it did not save
]

# What else reads query parameters: files, feeds and answers for programs rather than pages for a reader.
OTHER_ANSWERS = [
    ("/en/ipg/2.3/example-c/preview.png", ("v",)),
    ("/api/ipg/2.3/", ("release",)),
    ("/api/ipg/2.3/example-c/", ("release",)),
    ("/oembed/?url=http://testserver/en/ipg/2.3/example-c/", ("maxwidth",)),
    ("/lang/ja/", ("next",)),
    ("/offline/pages.json", ("lang", "langs")),
    ("/sw.js", ("lang",)),
    ("/linker/languages/", ("lang", "origin")),
]

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Node:
    def __init__(self, tag, attrs, parent=None):
        self.tag, self.attrs, self.parent, self.children = tag, dict(attrs), parent, []

    @property
    def classes(self):
        return (self.attrs.get("class") or "").split()

    def text(self, skip=()):
        """The text, without that of descendants having one of the classes in `skip`."""
        parts = [c if isinstance(c, str) else "" if set(c.classes) & set(skip) else c.text(skip) for c in self.children]
        return " ".join(" ".join(parts).split())

    def iter(self):
        for child in self.children:
            if isinstance(child, Node):
                yield child
                yield from child.iter()

    def find_all(self, tag=None, class_=None, **attrs):
        return [
            n
            for n in self.iter()
            if (tag is None or n.tag == tag)
            and (class_ is None or class_ in n.classes)
            and all(n.attrs.get(k.rstrip("_")) == v for k, v in attrs.items())
        ]

    def find(self, tag=None, class_=None, **attrs):
        found = self.find_all(tag, class_, **attrs)
        return found[0] if found else None

    def by_id(self, id):
        found = [n for n in self.iter() if n.attrs.get("id") == id]
        assert len(found) <= 1, f"id {id!r} appears {len(found)} times"
        return found[0] if found else None

    def children_with(self, class_):
        return [c for c in self.children if isinstance(c, Node) and class_ in c.classes]

    def next_siblings(self):
        siblings = [c for c in self.parent.children if isinstance(c, Node)]
        return siblings[siblings.index(self) + 1 :]


class _Builder(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.current = self.root

    def handle_starttag(self, tag, attrs):
        node = Node(tag, attrs, self.current)
        self.current.children.append(node)
        if tag not in VOID:
            self.current = node

    def handle_startendtag(self, tag, attrs):
        self.current.children.append(Node(tag, attrs, self.current))

    def handle_endtag(self, tag):
        node = self.current
        while node is not self.root and node.tag != tag:
            node = node.parent
        if node is not self.root:
            self.current = node.parent

    def handle_data(self, data):
        self.current.children.append(data)


def parse(html):
    builder = _Builder()
    builder.feed(html if isinstance(html, str) else html.decode())
    builder.close()
    return builder.root


def term_key(mark):
    """The key of the term a mark (`a.term`) stands for: the #fragment of its link to the term's glossary entry."""
    return mark.attrs["href"].partition("#")[2]


def term_mark(node, key):
    """The first mark of the term `key` in `node`, or None."""
    return next((a for a in node.find_all("a", class_="term") if term_key(a) == key), None)
