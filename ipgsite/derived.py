"""What a write of the IPG's content sets off, in this order.

Every write goes through `ipgsite.translations.writing`, which itself records, in the locked row:
  1. the revision of the paragraph or note (the next writer's lost-update check reads it);
  2. the history: a `translations.Change` with who, when, before and after.
Then, once per batch of writes (one request, or one load of content/), in the same transaction, each step below
is called with the batch (`writing.Batch`: the edits, and whether names or structure changed, or everything):
"""

from ipgsite.caching import versions
from ipgsite.crosslinks import build
from ipgsite.search import index
from ipgsite.study import pictures
from ipgsite.terms import occurrences
from ipgsite.translations import status

AFTER_WRITE = (
    status.follow,  # 3. each translation's status: missing, outdated, translated, reviewed
    build.follow,  # 4. the cross-links found in the text, which "Mentioned in" lists read
    occurrences.follow,  # 4b. the terms found in the text, which term marks and the glossary read
    index.follow,  # 5. the search index
    versions.follow,  # 6. the content version: cached pages and ETags are stale from now on
    pictures.follow,  # 7. once committed: the link preview pictures of what changed, drawn before anyone asks
)


def apply(batch):
    for step in AFTER_WRITE:
        step(batch)
