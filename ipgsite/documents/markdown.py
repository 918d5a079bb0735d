"""Markdown, as translators keep it: rendered with the `markdown` package the site uses, then read as HTML.
Emphasis, list numbers and line-break marks are structure, never text; a line break in a paragraph is a line."""

import markdown as markdown_package

from . import html


def read(raw):
    rendered = markdown_package.markdown(raw, extensions=["extra", "sane_lists"], output_format="html")
    return html.read(f"<html><body>{rendered}</body></html>", whole=True, newlines=True)
