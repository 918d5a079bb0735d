from django import template

from ipgsite.editing.permissions import translatable_languages
from ipgsite.ipg import languages

register = template.Library()


@register.inclusion_tag("exchange/dashboard.html", takes_context=True)
def exchange_files(context):
    """On the translators' dashboard: for each of the user's languages, its files from each other language, and the
    upload of an XLIFF or TMX file."""
    mine = translatable_languages(context["request"].user)
    pairs = [
        (target, languages.name(target), [(source, languages.name(source)) for source in languages.others(target)])
        for target in mine
    ]
    return {"pairs": pairs, "csrf_token": context.get("csrf_token")}
