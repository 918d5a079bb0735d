"""How section pages offer study tools: a paragraph's link to share and its place in a reading list."""

from django import template
from django.templatetags.static import static
from django.urls import reverse
from django.utils.html import format_html

from ipgsite.ipg import compare
from ipgsite.ipg.models import Paragraph
from ipgsite.study import lists

register = template.Library()


@register.simple_tag
def study_assets():
    """The study pages' stylesheet (a reading list, a paragraph's page, the quiz). Their script is the site's own
    (static/js/site.js), as is what a section page's ¶ menu and reading list bar need of the stylesheet."""
    return format_html('<link rel="stylesheet" href="{}">', static("study/study.css"))


@register.simple_tag(takes_context=True)
def share_url(context, section, paragraph):
    """The paragraph's own page, whose link preview shows that paragraph (not the section's first); from a page
    comparing languages, in those languages (the page's `codes`, already normalized), as the sender sees it."""
    url = reverse("study:paragraph", kwargs={"number": section.number, "key": paragraph.key})
    if context.get("comparing"):
        url += f"?langs={compare.serialize(context['codes'])}"
    return url


KEY = "paragraph-key"  # stands for the key in the menu's pattern of share links


@register.inclusion_tag("study/paragraph_menu.html", takes_context=True)
def paragraph_menu(context, section):
    """The ¶ menu, once per page: static/js/study.js moves it under the paragraph whose ¶ was tapped and fills in
    that paragraph's reference and share link (`data-share`, with {key} for its key)."""
    share = share_url(context, section, Paragraph(key=KEY)).replace(f"/{KEY}/", "/{key}/")
    history = reverse("history:paragraph", kwargs={"number": section.number, "key": KEY}).replace(f"/{KEY}/", "/{key}/")
    if context.get("comparing"):
        history += f"?langs={compare.serialize(context['codes'])}"
    return {"section": section.number, "share": share, "history": history, "section_url": context["request"].path}


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
