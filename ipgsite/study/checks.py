from django.core.checks import Warning, register

from . import cards


@register()
def preview_font(app_configs, **kwargs):
    """The link preview pictures need a CJK font: say so at start-up rather than at the first picture."""
    try:
        cards.font_file()
    except cards.FontMissing as missing:
        return [Warning(str(missing), id="study.W001")]
    return []
