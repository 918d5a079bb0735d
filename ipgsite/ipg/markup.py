"""Translator-written Markdown to safe HTML: Markdown renders, then nh3 (Ammonia) sanitizes."""

from functools import lru_cache

import markdown
import nh3
from django.utils.safestring import mark_safe

ALLOWED_TAGS = {"p", "br", "em", "strong", "code", "a", "ul", "ol", "li", "blockquote", "span", "sup", "sub"}
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "span": {"lang"}, "p": {"lang"}}
ALLOWED_URL_SCHEMES = {"http", "https", "mailto"}


@lru_cache(maxsize=8192)
def render_markdown(text):
    html = markdown.markdown(text or "", output_format="html")
    clean = nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes=ALLOWED_URL_SCHEMES,
        link_rel="noopener noreferrer",
    )
    return mark_safe(clean)
