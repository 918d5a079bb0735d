"""Where a term's names were found follows the paragraphs named (an after-write step): a paragraph renamed or a
section renumbered in the admin moves its address, and `found` locations like "2.3#example-c" are rewritten to
the new one, so that `exportcontent` writes a terms.toml that loads."""

from .models import Term


def follow(batch):
    if not batch.moved:
        return
    for term in Term.objects.exclude(found={}).only("pk", "found"):
        found = {form: [batch.moved.get(at, at) for at in locations] for form, locations in term.found.items()}
        if found != term.found:
            Term.objects.filter(pk=term.pk).update(found=found)
