from modeltranslation.translator import TranslationOptions, register

from .models import Case, Question


@register(Question)
class QuestionTranslation(TranslationOptions):
    fields = ("text", "answers")


@register(Case)
class CaseTranslation(TranslationOptions):
    fields = ("text",)
