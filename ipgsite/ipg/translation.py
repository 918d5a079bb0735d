from modeltranslation.translator import TranslationOptions, register

from .models import Chapter, Note, Paragraph, Section


@register(Chapter)
class ChapterTranslation(TranslationOptions):
    fields = ("title",)


@register(Section)
class SectionTranslation(TranslationOptions):
    fields = ("title",)


@register(Paragraph)
class ParagraphTranslation(TranslationOptions):
    fields = ("text",)


@register(Note)
class NoteTranslation(TranslationOptions):
    fields = ("body",)
