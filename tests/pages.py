"""A small HTML tree for reading what a page shows, with the standard library's parser."""

from html.parser import HTMLParser

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
