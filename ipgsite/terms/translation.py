from modeltranslation.translator import TranslationOptions, register

from .models import Term


@register(Term)
class TermTranslation(TranslationOptions):
    fields = ("name", "variants", "inflections")
