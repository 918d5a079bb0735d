"""How section pages offer study tools: a paragraph's link to share and its place in a reading list."""

from django import template
from django.templatetags.static import static
from django.urls import reverse
from django.utils.html import format_html

from ipgsite.crosslinks.rendering import links_by_text, with_links
from ipgsite.study import lists

register = template.Library()


@register.simple_tag
def study_assets():
    return format_html(
        '<link rel="stylesheet" href="{}">\n  <script src="{}" defer></script>',
        static("study/study.css"),
        static("study/study.js"),
    )


@register.simple_tag
def share_url(section, paragraph):
    """The paragraph's own page, whose link preview shows that paragraph (not the section's first)."""
    return reverse("study:paragraph", kwargs={"number": section.number, "key": paragraph.key})


@register.inclusion_tag("study/paragraph_menu.html")
def paragraph_menu(section, paragraph):
    return {"share": share_url(section, paragraph), "reference": f"{section.number}:{paragraph.key}"}


@register.inclusion_tag("study/list_bar.html")
def reading_list_bar():
    return {"list_url": reverse("study:list")}


@register.filter
def reference_number(reference):
    return reference.partition(":")[0]


@register.filter
def reference_key(reference):
    parsed = lists.parse(reference)
    return parsed[1] if parsed else reference.partition(":")[2]


@register.simple_tag(takes_context=True)
def linked_text(context, text):
    """crosslinks' `linked` for rows rendered one include at a time: the links of each section are read once
    per page into the view's `links_cache` (an include cannot see its parent's render context)."""
    section_id = text.paragraph.section_id
    cache = context.get("links_cache")
    if cache is None:
        cache = context.render_context.setdefault("study-links", {})
    if section_id not in cache:
        cache[section_id] = links_by_text(section_id)
    return with_links(text.html, cache[section_id].get(text.place, []))
