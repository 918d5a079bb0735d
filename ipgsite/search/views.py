from urllib.parse import urlencode

from django.http import QueryDict
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from ipgsite.ipg import languages

from .finding import SectionNames, find
from .models import Kind
from .query import MAX_LENGTH, MAX_TERMS, Query


@require_safe
def search(request):
    """`/<lang>/search/?q=…`: a section's number or name goes to it; anything else lists what contains it."""
    query = Query.from_request(request)
    names = SectionNames()
    if query.text:
        section = names.named_by(query.text)
        if section is not None:
            return redirect(section.get_absolute_url())
    results = find(query, get_language(), names=names)
    context = {
        "previous_page_url": _page_url(query, query.page - 1) if query.terms and query.page > 1 else "",
        "next_page_url": _page_url(query, query.page + 1) if results.has_next else "",
        "query": query,
        "suggestions": [(suggestion, _page_url(query, 1, text=suggestion.text)) for suggestion in results.suggestions],
        "search_query": query.text,
        "results": results,
        "max_length": MAX_LENGTH,
        "max_terms": MAX_TERMS,
        "language_choices": [(code, languages.html_lang(code), languages.name(code)) for code in languages.CODES],
        "kind_choices": Kind.choices,
    }
    return render(request, "search/search.html", context)


def normalized_query(query):
    """The QueryDict as the search reads it, so that spellings of one search are one cached page
    (settings.PAGE_CACHE_NORMALIZED); a query cut to MAX_LENGTH keeps a character more, so that its page says so."""
    raw = query.get("q", "")
    parsed = Query.parse(raw, query.getlist("language"), query.getlist("kind"), query.get("page", 1))
    normalized = QueryDict(mutable=True)
    text = raw[: MAX_LENGTH + 1] if parsed.shortened else parsed.text
    if text:
        normalized["q"] = text
    if parsed.languages:
        normalized.setlist("language", parsed.languages)
    if parsed.kinds:
        normalized.setlist("kind", parsed.kinds)
    if parsed.page > 1:
        normalized["page"] = str(parsed.page)
    return normalized


def _page_url(query, page, text=None):
    """Another page of the results, or of `text` with the same filters; from the cleaned query, never raw input."""
    params = [("q", text or query.text)]
    params += [*(("language", c) for c in query.languages), *(("kind", k) for k in query.kinds)]
    if page > 1:
        params.append(("page", page))
    return "?" + urlencode(params)
