"""The aligned text of a language pair as TMX 1.4b, the translation memory OmegaT reads from its `tm/` folder and
Trados imports one language direction at a time.

One `tu` per paragraph that has both languages, both current (a translation that follows an older English is no
match for the English beside it), its `tuid` the paragraph's unit id (`2.3#example-c`) and the newest release in
effect as the prop `x-release`.
"""

from xml.etree.ElementTree import Element, SubElement, indent, tostring

from django.utils import timezone

from ipgsite.editing.models import State, Status
from ipgsite.ipg.models import Paragraph
from ipgsite.releases.models import Release

from .inbound import file_language
from .units import unit_id

XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def current_release():
    return Release.objects.in_effect().newest_first().first()


def export_tmx(source, target):
    """The paragraphs with current text in both languages, as a TMX 1.4b document (bytes, UTF-8)."""
    release = current_release()
    outdated = set(
        Status.objects.of_paragraphs()
        .filter(language__in=[source, target], state=State.OUTDATED)
        .values_list("paragraph_id", flat=True)
    )
    tmx = Element("tmx", {"version": "1.4"})
    SubElement(
        tmx,
        "header",
        {
            "creationtool": "ipgsite",
            "creationtoolversion": "1",
            "datatype": "plaintext",
            "segtype": "paragraph",
            "adminlang": "en",
            "srclang": file_language(source),
            "o-tmf": "ipgsite",
            "creationdate": timezone.now().strftime("%Y%m%dT%H%M%SZ"),
        },
    )
    body = SubElement(tmx, "body")
    for paragraph in Paragraph.objects.select_related("section").in_reading_order():
        texts = {code: paragraph.text_in(code) for code in (source, target)}
        if not all(texts.values()) or paragraph.pk in outdated:
            continue
        tu = SubElement(body, "tu", {"tuid": unit_id(paragraph.section.number, paragraph.key)})
        if release is not None:
            SubElement(tu, "prop", {"type": "x-release"}).text = release.date.isoformat()
        for code in (source, target):
            tuv = SubElement(tu, "tuv", {XML_LANG: file_language(code)})
            SubElement(tuv, "seg").text = texts[code]
    indent(tmx)
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + tostring(tmx, encoding="utf-8") + b"\n"
