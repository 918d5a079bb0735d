"""What a paragraph's link preview picture shows (`card_for`); drawn when first asked for (`cards.open_picture`)."""

from django.utils import translation
from django.utils.translation import gettext

from ipgsite.ipg import languages
from ipgsite.ipg.models import Penalty

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
