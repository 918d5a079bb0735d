"""The site's content languages, and the names they go by in code, URLs and columns."""

from django.conf import settings
from django.utils.translation import pgettext_lazy

CODES = [code for code, _name in settings.LANGUAGES]
CHOICES = list(settings.LANGUAGES)
CJK = [code for code in CODES if code in ("zh-hans", "ja")]  # written without spaces between words
OPEN_GRAPH_LOCALES = {"en": "en_US", "zh-hans": "zh_CN", "ja": "ja_JP"}
# The language the IPG is published in: every title has it, and every translation follows it.
OFFICIAL = SOURCE = CODES[0]


def field_suffix(code):
    """`zh-hans` -> `zh_hans`, the suffix django-modeltranslation gives its columns."""
    return code.replace("-", "_")


def html_lang(code):
    """The BCP 47 tag for a `lang` attribute: `zh-hans` -> `zh-Hans`."""
    return {"zh-hans": "zh-Hans"}.get(code, code)


def name(code):
    """The language's own name for itself (English, 简体中文, 日本語): for a choice of language, or a label that
    carries its `lang`."""
    return dict(settings.LANGUAGES)[code]


# Each language as the interface's language calls it, in a sentence or a label of the page: "以英文显示", never
# "以English显示" (locale/<lang>/STYLE.md names the word).
CALLED = {
    "en": pgettext_lazy("language", "English"),
    "zh-hans": pgettext_lazy("language", "Simplified Chinese"),
    "ja": pgettext_lazy("language", "Japanese"),
}


def called(code):
    """The language's name in the active interface language: English, 英文, 英語."""
    return str(CALLED[code])


def others(code):
    """The other languages, in the order a reader falls back to them: English first."""
    return [c for c in CODES if c != code]


def column(field, code):
    """The django-modeltranslation column of `field` in a language: ('text', 'zh-hans') -> 'text_zh_hans'."""
    return f"{field}_{field_suffix(code)}"


def translated(obj, field, code):
    """`obj`'s `field` in one language, '' where it is missing."""
    return getattr(obj, column(field, code)) or ""


def translations(obj, field):
    """`obj`'s `field` in every language it has, in the site's order."""
    return {code: value for code in CODES if (value := translated(obj, field, code))}


def translated_field_names(model):
    """The fields django-modeltranslation gives a column per language, e.g. {"text"} for a paragraph."""
    from modeltranslation.translator import NotRegistered, translator

    try:
        return set(translator.get_options_for_model(model).fields)
    except NotRegistered:
        return set()
