"""Translators' Markdown is sanitized: no script, event handler or javascript: URL reaches a page."""

import re
from html.parser import HTMLParser

import pytest

from ipgsite.ipg.markup import render_markdown
from people import client_for, paragraph, translate_form, translate_url, translator

PAYLOADS = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(2)>",
    "[click](javascript:alert(3))",
    "[click](JaVaScRiPt:alert(4))",
    "[click](&#106;avascript:alert(5))",
    '<a href="javascript:alert(6)">x</a>',
    "<svg onload=alert(7)>",
    '<p onclick="alert(8)">x</p>',
    '<span lang="ja" onmouseover="alert(9)">x</span>',
    '<iframe src="javascript:alert(10)"></iframe>',
    "<style>body{display:none}</style>",
    '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxMik8L3NjcmlwdD4=">x</a>',
    "![x](javascript:alert(13))",
    "<javascript:alert(14)>",
    "[x][r]\n\n[r]: javascript:alert(15)",
    '<a href=" &#x09;javascript:alert(16)">x</a>',
    '<div style="background:url(javascript:alert(17))">x</div>',
    '"><script>alert(18)</script>',
    '<form action="javascript:alert(19)"><button formaction="javascript:alert(19)">x</button></form>',
    '<a href="vbscript:msgbox(20)">x</a>',
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(21)>",
    "<scr<script>ipt>alert(22)</script>",
    '<a href="https://example.org/" onfocus="alert(23)" autofocus>ok</a>',
    "`<script>alert(24)</script>` and **bold** stay text",
]
DANGEROUS_TAGS = {"script", "iframe", "object", "embed", "svg", "math", "style", "img", "base", "frame", "frameset"}
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "xlink:href", "poster", "background", "data"}


class Inspector(HTMLParser):
    """Everything in the HTML that could run script."""

    def __init__(self, allow_script_src=True, allowed_tags=()):
        super().__init__(convert_charrefs=True)
        self.problems, self.allow_script_src, self.allowed_tags = [], allow_script_src, set(allowed_tags)
        self.in_script = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script":
            self.in_script = True
            src = attrs.get("src") or ""
            if not (self.allow_script_src and src.startswith("/") and not src.startswith("//")):
                self.problems.append(f"<script {attrs}>")
        elif tag in DANGEROUS_TAGS - self.allowed_tags:
            self.problems.append(f"<{tag}>")
        for name, value in attrs.items():
            if name.startswith("on"):
                self.problems.append(f"{tag} {name}={value!r}")
            if name in URL_ATTRIBUTES and value:
                scheme = re.sub(r"[\x00-\x20]", "", value).lower().split(":", 1)
                if len(scheme) == 2 and scheme[0] in {"javascript", "vbscript", "data"}:
                    self.problems.append(f"{tag} {name}={value!r}")
            if name == "style" and value and "url(" in value.lower():
                self.problems.append(f"{tag} style={value!r}")

    def handle_data(self, data):
        if self.in_script and data.strip():
            self.problems.append(f"inline script: {data[:80]!r}")

    def handle_endtag(self, tag):
        if tag == "script":
            self.in_script = False


def problems(html, allow_script_src=True, allowed_tags=()):
    inspector = Inspector(allow_script_src, allowed_tags)
    inspector.feed(html)
    return inspector.problems


@pytest.mark.parametrize("payload", PAYLOADS)
def test_the_sanitizer_renders_each_payload_inert(payload):
    html = str(render_markdown(payload))
    assert problems(html, allow_script_src=False) == [], html
    assert "javascript:" not in html.lower()


def test_markdown_a_translator_may_use_still_works():
    html = str(
        render_markdown(
            '**bold**, *em*, `code`, [a link](https://example.org/ "title") and <span lang="en">Brainstorm</span>'
        )
    )
    assert "<strong>bold</strong>" in html and "<em>em</em>" in html and "<code>code</code>" in html
    assert '<a href="https://example.org/" title="title" rel="noopener noreferrer">a link</a>' in html
    assert '<span lang="en">Brainstorm</span>' in html


def save(client, number, code, name, text):
    form = translate_form(client, number, code)
    form.update({f"{name}-text": text, "save": name})
    assert client.post(translate_url(number, code), form).status_code == 302


def test_payloads_saved_as_text_and_notes_reach_public_pages_inert(ipg, client):
    ja = client_for(translator("ja"))
    everything = "\n\n".join(["Safe text stays.", *PAYLOADS])
    save(ja, "2.4", "ja", "p-definition-1", everything)
    note = paragraph("2.3", "example-c").notes.get()
    save(ja, "2.3", "ja", f"n-{note.pk}", everything)
    assert paragraph("2.4", "definition-1").text_ja == everything  # stored as written, sanitized when shown

    for url in ["/ja/ipg/2.4/", "/en/ipg/2.4/?langs=en,ja", "/ja/ipg/2.3/", "/en/ipg/2.3/?langs=ja,zh-hans"]:
        response = client.get(url, follow=True)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert problems(html) == [], url
        assert "alert(" not in " ".join(re.findall(r'(?:href|src|action)="([^"]*)"', html)), url
        assert "Safe text stays." in html  # the harmless parts of the text are shown


def test_the_translators_own_pages_show_payloads_inert(ipg):
    ja = client_for(translator("ja"))
    save(ja, "2.4", "ja", "p-example-b", "\n\n".join(PAYLOADS))
    for url in [
        translate_url("2.4", "ja"),
        "/admin/translate/2.4/history/example-b/",
        translate_url("2.4", "ja") + "?from=ja",
    ]:
        html = ja.get(url).content.decode()
        assert problems(html, allowed_tags={"svg"}) == [], url  # the admin's own icons are inline SVG
    preview = ja.post("/admin/translate/preview/", {"text": "\n\n".join(PAYLOADS)}).json()["html"]
    assert problems(preview, allow_script_src=False) == []
