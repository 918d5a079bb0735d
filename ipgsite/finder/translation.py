from modeltranslation.translator import TranslationOptions, register

from .models import Question


@register(Question)
class QuestionTranslation(TranslationOptions):
    fields = ("text", "answers")
