from modeltranslation.translator import TranslationOptions, register

from .models import Release


@register(Release)
class ReleaseTranslation(TranslationOptions):
    fields = ("title", "announcement")
