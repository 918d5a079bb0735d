"""Link preview pictures drawn when the text is written, so that a chat app asking for one is served a file.

`follow` is an after-write step (settings.AFTER_WRITE): once the batch's transaction commits, the pictures its writes
changed are drawn (a picture whose text is unchanged keeps its file). A load of content/ or a change of names or
structure checks every paragraph's; an edit, its paragraph's. Without a font nothing is drawn, as the check
study.W001 says.
"""

from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext

from ipgsite.ipg import languages
from ipgsite.ipg.models import Paragraph, Penalty

from . import cards, previews


def card_for(section, paragraph, code):
    """What the preview picture of `paragraph` shows in `code`: its text, or that it has none in `code`."""
    with translation.override(code):
        text = paragraph.text_in(code)
        if text:
            text = previews.plain_text(text)
        else:
            text = gettext("Not yet translated into %(language)s.") % {"language": languages.called(code)}
        return cards.Card(
            code=code,
            number=section.number,
            key=paragraph.key,
            title=section.title_in(code) or section.title_en,
            penalty=str(Penalty(section.penalty).label) if section.penalty else "",
            text=text,
            site=gettext("Infraction Procedure Guide"),
        )


def draw(paragraphs):
    """Every picture of `paragraphs` in every language that is not drawn yet; how many were drawn."""
    drawn = 0
    try:
        for paragraph in paragraphs.select_related("section"):
            for code in languages.CODES:
                drawn += cards.ensure(card_for(paragraph.section, paragraph, code))
    except cards.FontMissing:
        pass  # study.W001 says what to install; the picture answers 503 until then
    return drawn


def follow(batch):
    """After the batch commits, draw the pictures its writes changed."""
    if batch.everything or batch.names_changed or batch.structure_changed:
        paragraphs = Paragraph.objects.all()
    elif batch.paragraph_ids:
        paragraphs = Paragraph.objects.filter(pk__in=batch.paragraph_ids)
    else:
        return
    transaction.on_commit(lambda: draw(paragraphs))
