"""Markdown versions of section and paragraph pages, /llms.txt, and the MCP endpoint."""

import time

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpResponse, HttpResponseNotAllowed, HttpResponsePermanentRedirect, JsonResponse
from django.urls import reverse
from django.utils import translation
from django.utils.translation import get_language
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe

from ipgsite import proxies
from ipgsite.ipg import compare

from . import markdown, mcp
from .quoting import NotFound, quote_paragraph, quote_section, section_in

MARKDOWN = "text/markdown; charset=utf-8"


def _codes(request):
    """(codes, None) of the reader's languages (`?langs=`, else the page's); (None, redirect) to their spelling."""
    codes, redirect = compare.in_url(request)
    if redirect:
        return None, redirect
    return codes or [get_language()], None


@require_safe
def section(request, number):
    """`/<lang>/ipg/<number>/index.md`: the section page as Markdown."""
    codes, redirect = _codes(request)
    if redirect:
        return redirect
    try:
        quoted = quote_section(request, number, codes, request.GET.get("release"))
    except NotFound as missing:
        raise Http404(str(missing)) from None
    return HttpResponse(markdown.section_markdown(quoted, get_language()), content_type=MARKDOWN)


@require_safe
def paragraph(request, number, key):
    """`/<lang>/ipg/<number>/<key>/index.md`: one paragraph's page as Markdown."""
    codes, redirect = _codes(request)
    if redirect:
        return redirect
    release = request.GET.get("release")
    try:
        quoted = quote_paragraph(request, number, key, codes, release)
    except NotFound as missing:
        raise Http404(str(missing)) from None
    if quoted.key != key and not release:  # a key it had before a rename: its address is kept
        url = reverse("markdown:paragraph", kwargs={"number": number, "key": quoted.key})
        query = request.META.get("QUERY_STRING", "")
        return HttpResponsePermanentRedirect(url + (f"?{query}" if query else ""))
    try:
        section, version = section_in(number, release)
    except NotFound as missing:
        raise Http404(str(missing)) from None
    code = get_language()
    with translation.override(code):
        query = f"?release={version.name}" if version else ""
        section_url = request.build_absolute_uri(section.get_absolute_url() + query)
    title = section.title_in(code) or section.title_in("en")
    text = markdown.paragraph_markdown(title, section.penalty, quoted, section_url)
    return HttpResponse(text, content_type=MARKDOWN)


@require_safe
def llms_txt(request):
    return HttpResponse(markdown.llms_txt(request), content_type="text/plain; charset=utf-8")


@csrf_exempt
def mcp_endpoint(request):
    """`/mcp`: the MCP server (`mcp.py`). POST only; rate-limited per address (settings.MCP_RATE_LIMIT a minute)."""
    if request.method != "POST":
        response = HttpResponseNotAllowed(["POST"])
        response["Cache-Control"] = "no-store"
        return response
    version = request.headers.get("MCP-Protocol-Version")
    if version is not None and version not in mcp.SPOKEN:
        data = {"supported": list(mcp.SPOKEN), "requested": version[:40]}
        answer = mcp.Answer(
            400, mcp.error_body("Unsupported protocol version", code=mcp.UNSUPPORTED_VERSION, data=data)
        )
    elif not _within_rate(request):
        answer = mcp.Answer(429, mcp.error_body("Too many requests from this address: wait a minute."))
    elif int(request.META.get("CONTENT_LENGTH") or 0) > mcp.MAX_BODY:
        answer = mcp.Answer(413, mcp.error_body(f"A message is at most {mcp.MAX_BODY} bytes."))
    else:
        message, answer = mcp.decode(request.body)
        if answer is None:
            answer = mcp.answer(request, message)
    if answer.body is None:
        response = HttpResponse(status=202)
    else:
        response = JsonResponse(answer.body, status=answer.status, json_dumps_params={"ensure_ascii": False})
    if answer.status == 429:
        response["Retry-After"] = "60"
    response["Cache-Control"] = "no-store"
    return response


def _within_rate(request):
    """Whether this address has made fewer than settings.MCP_RATE_LIMIT requests this minute (the cache counts)."""
    address = proxies.client_address(
        request.META.get("REMOTE_ADDR"), request.META.get("HTTP_X_FORWARDED_FOR"), settings.FORWARDED_ALLOW_IPS
    )
    key = f"mcp-rate:{address}:{int(time.time() // 60)}"
    cache.add(key, 0, timeout=120)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between the two calls
        cache.add(key, 1, timeout=120)
        count = 1
    return count <= settings.MCP_RATE_LIMIT
