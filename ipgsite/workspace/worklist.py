"""What needs work, in the order a translator takes it: outdated translations first (a change to the English waits
on them), then missing ones, each in reading order (section by section, a paragraph's text before its notes), and
across the translator's languages in the order given."""

from ipgsite.editing.models import State, Status

# Outdated before missing; a text that needs no work (just saved) stands with the missing, so that "Save and next"
# from it goes on to the next missing text after it.
RANKS = {State.OUTDATED: 0}
LAST_RANK = 1


def in_work_order(statuses):
    """The statuses, outdated before missing, each in reading order."""
    return statuses.order_by("-state", *statuses.in_reading_order().query.order_by)


def needing_work(codes=None):
    statuses = Status.everything.of_paragraphs().needing_work()
    if codes is not None:
        statuses = statuses.filter(language__in=codes)
    return in_work_order(statuses)


def anchor(status):
    """The anchor of a status's text on the translate page: its paragraph's key, or note-<id>."""
    return f"note-{status.note_id}" if status.note_id else status.paragraph.key


def place(state, position, language, codes):
    """Where a text stands in the work order of `codes`: (rank, reading position, language)."""
    return (RANKS.get(state, LAST_RANK), position, codes.index(language) if language in codes else len(codes))


def position_of(status):
    paragraph, note = status.paragraph, status.note
    return (paragraph.section.order, paragraph.order, note.order if note else -1, note.pk if note else 0)


def next_needing_work(codes, after=None):
    """The first text (a Status) needing work in one of `codes`, in work order, after the place `after` (see
    `place`) if given, wrapping round to the start; or None. One query, read once in order."""
    statuses = needing_work(codes).select_related("paragraph__section", "note")
    if after is None:
        return statuses.first()
    first = following = None
    for status in statuses.iterator():
        here = place(status.state, position_of(status), status.language, codes)
        if first is None or here < first[0]:
            first = (here, status)
        if here > after and (following is None or here < following[0]):
            following = (here, status)
    return (following or first or (None, None))[1]


def next_in_each_cell(codes):
    """{(section id, language): (anchor, paragraph key)} of the first text needing work in each section and
    language, in work order."""
    found = {}
    for section_id, code, key, note_id in needing_work(codes).values_list(
        "paragraph__section_id", "language", "paragraph__key", "note_id"
    ):
        found.setdefault((section_id, code), (f"note-{note_id}" if note_id else key, key))
    return found
