"""The finder's citations follow the paragraphs they cite (an after-write step): a paragraph renamed or a section
renumbered in the admin moves its address, and the questions, outcomes and worked examples that cite it are
rewritten to the new one, so that the finder still shows the citation and `exportcontent` writes a finder.toml
that loads."""

from .models import Example, Outcome, Question


def follow(batch):
    if not batch.moved:
        return
    moved = batch.moved
    for model in (Question, Outcome):
        for row in model.objects.only("pk", "cites"):
            cites = [moved.get(cite, cite) for cite in row.cites]
            if cites != row.cites:
                model.objects.filter(pk=row.pk).update(cites=cites)
    for example in Example.objects.filter(paragraph__in=moved):
        Example.objects.filter(pk=example.pk).update(paragraph=moved[example.paragraph])
