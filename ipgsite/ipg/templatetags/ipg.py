import re
from urllib.parse import urlencode

from django import template
from django.template.loader import render_to_string
from django.urls import get_script_prefix, reverse
from django.utils import translation
from django.utils.html import format_html, format_html_join
from django.utils.translation import get_language, gettext

from .. import languages, layers, naming
from ..models import NOTE_SOURCES, Penalty

register = template.Library()

BETWEEN_TAGS = re.compile(r">\s*\n\s*<")
LINE_BREAK = re.compile(r"\s*\n\s*")
# Elements whose boxes are blocks: a space beside one of their tags is never seen (nor read) as a space.
BLOCK = "(?:{})".format(
    "|".join(
        "address article aside blockquote body dd details div dl dt fieldset figcaption figure footer form h[1-6] head "
        "header html legend li link main meta nav ol p section summary table tbody td th thead title tr ul".split()
    )
)
AFTER_BLOCK_TAG = re.compile(rf"(</?{BLOCK}(?:\s[^<>]*)?>)\s*\n\s*")
BEFORE_BLOCK_TAG = re.compile(rf"\s*\n\s*(?=</?{BLOCK}[\s/>])")


class SqueezeNode(template.Node):
    def __init__(self, nodelist):
        self.nodelist = nodelist

    def render(self, context):
        return self.nodelist.render(context).strip()


@register.tag
def squeeze(parser, token):
    """`{% squeeze %}…{% endsqueeze %}`: the template's own line breaks and indentation are not sent. In the literal
    text of the template (never in what a variable or a tag outputs: the IPG's text, a translator's Markdown), the
    space between two tags that holds a line break is dropped, as is a piece of it that is nothing but line breaks and
    indentation (between two tags of the template's) and one beside the tag of a block (a div, a p, a section…: no
    space is seen there); any other run of space with a line break becomes one line break, which HTML reads as the
    space it was; the space around the whole is dropped. Done once, when the template is compiled."""
    nodelist = parser.parse(("endsqueeze",))
    parser.delete_first_token()
    for node in nodelist.get_nodes_by_type(template.base.TextNode):
        if LINE_BREAK.fullmatch(node.s):
            node.s = ""
            continue
        squeezed = BEFORE_BLOCK_TAG.sub("", AFTER_BLOCK_TAG.sub(r"\1", BETWEEN_TAGS.sub("><", node.s)))
        node.s = LINE_BREAK.sub("\n", squeezed)
    return SqueezeNode(nodelist)


@register.filter
def html_lang(code):
    return languages.html_lang(code)


@register.filter
def language_name(code):
    """The language's own name (日本語), for a label marked with that language's `lang`."""
    return languages.name(code)


@register.filter
def language_called(code):
    """The language as the page's language calls it (Japanese, 日文, 日本語), for a sentence or label of the page."""
    return languages.called(code)


@register.filter
def language_names(codes):
    """The languages as the page's language calls them."""
    return [languages.called(code) for code in codes]


@register.simple_tag
def text(obj, field_name):
    """A translated field in the page's language, or in English marked with its `lang` and labelled."""
    code = get_language()
    value = languages.translated(obj, field_name, code)
    if value:
        return format_html('<span lang="{}">{}</span>', languages.html_lang(code), value)
    for other in languages.others(code):
        value = languages.translated(obj, field_name, other)
        if value:
            return format_html(
                '<span lang="{}" class="fallback">{}</span> <small class="fallback-mark" title="{}">{}</small>',
                languages.html_lang(other),
                value,
                gettext("Not yet translated into %(language)s") % {"language": languages.called(code)},
                other.split("-")[0].upper(),
            )
    return ""


@register.filter
def note_source(source):
    """A note's source in the page's language, where the catalogues name it; else as content/ has it, in English."""
    shown = gettext(source) if source in NOTE_SOURCES else source
    if shown == source and get_language() != languages.SOURCE:
        return format_html('<span lang="en">{}</span>', source)
    return shown


@register.filter
def listed(names):
    """Names joined as the page's language lists them ("English, 日本語"; "English、日本語")."""
    return gettext(", ").join(str(name) for name in names)


@register.simple_tag
def paragraph_name(section, key):
    """`{% paragraph_name section key %}`: "Example C", "Definition, paragraph 2", as the section page labels it; a
    paragraph's key is never shown."""
    return naming.name_in(section, key) or "¶"


@register.simple_tag
def penalty_badge(penalty):
    return format_html('<span class="penalty penalty-{}">{}</span>', penalty, Penalty(penalty).label)


_section_links = {}  # each link as rendered, by all it shows: the site's most repeated markup
SECTION_LINKS_KEPT = 5000


@register.simple_tag
def section_link(section, penalty=False, has_text=None, rel="", query=""):
    """A section as a link: its number and its title in the page's language (with its `lang`).

    penalty: the penalty badge after the link (the quick reference shows it in a cell of its own);
    has_text: False marks a section whose text is not on the site yet (None when the page doesn't know);
    rel: "prev" or "next" for the neighbouring sections, with an arrow on their side;
    query: the compare choice (`?langs=…`) carried to the section.
    A section's link is rendered once per language and address, and given again while its number, title and penalty
    are the same.
    """
    shown = (section.number, section.penalty, *(languages.translated(section, "title", c) for c in languages.CODES))
    key = (type(section), *shown, get_language(), get_script_prefix(), bool(penalty), has_text is False, rel, query)
    link = _section_links.get(key)
    if link is None:
        context = {
            "section": section,
            "href": section.get_absolute_url() + query,
            "title": text(section, "title"),
            "penalty": penalty and section.penalty,
            "no_text": has_text is False,
            "rel": rel,
        }
        link = render_to_string("ipg/section_link.html", context)
        if len(_section_links) >= SECTION_LINKS_KEPT:
            _section_links.clear()
        _section_links[key] = link
    return link


@register.inclusion_tag("ipg/breadcrumbs.html")
def breadcrumbs(previous=None, next=None, query=""):
    """The way back to the outline, and the sections before and after this one (with the compare choice)."""
    return {"previous": previous, "next": next, "query": query}


@register.simple_tag(takes_context=True)
def language_alternates(context):
    """`<link rel="alternate" hreflang>` to this page in every language, as a section page names its own."""
    request = context["request"]
    match = request.resolver_match
    links = []
    for code in languages.CODES:
        with translation.override(code):
            url = reverse(match.view_name, args=match.args, kwargs=match.kwargs)
        links.append((languages.html_lang(code), request.build_absolute_uri(url)))
    return format_html_join("\n  ", '<link rel="alternate" hreflang="{}" href="{}">', links)


def reading_page(context):
    """The dict that lasts the whole page, where text layers keep what they read once per page: the view's
    `reading_page` (an included template cannot see its parent's render context), else one for this render."""
    page = context.get("reading_page")
    return page if page is not None else context.render_context.setdefault("reading_page", {})


@register.simple_tag(takes_context=True)
def layered(context, text, only=""):
    """`{% layered t %}`: a paragraph's or note's rendered text with what other apps add to it (settings
    READING_LAYERS["text"]: cross-links, term marks, lag marks); `{% layered t "links terms" %}` applies those only."""
    return layers.text_html(text, reading_page(context), only.split() or None)


@register.simple_tag(takes_context=True)
def after_section(context):
    """What other apps show after a section's texts (settings READING_LAYERS["after_section"])."""
    return layers.after_section(context, reading_page(context))


@register.simple_tag(takes_context=True)
def compare_choices(context):
    """The compare control's one-tap choices: the page's language alone, then with each other language. Each is the
    form's own query, prefilled (`?langs=ja&langs=en`), so that the page remembers it (or forgets a comparison) as
    when the form is sent: `choices`, (codes, href, current) each, and the languages `chosen`."""
    page = get_language()
    chosen = [code for code in context.get("slots", []) if code] or [page]
    keep = list(context.get("keep") or [])
    choices = [([page], [page, ""])] + [([page, other], [page, other]) for other in languages.CODES if other != page]
    return {
        "chosen": chosen,
        "choices": [
            (codes, "?" + urlencode(keep + [("langs", value) for value in query]), codes == chosen)
            for codes, query in choices
        ],
    }
