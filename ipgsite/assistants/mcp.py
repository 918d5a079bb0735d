"""An MCP server (Model Context Protocol) for AI assistants: Streamable HTTP, read-only, anonymous, stateless.

Implemented in Django, in the JSON mode the specification allows: each POST to /mcp carries one JSON-RPC message and
gets one JSON answer (or 202 for a notification); no session is kept (no `Mcp-Session-Id`), so any gunicorn worker
answers any request, and GET (a stream the server would push on) is 405. The official SDK's server is an ASGI app
(Starlette, anyio); the site runs under gunicorn's sync workers (WSGI), so it would need a second kind of worker or
process. Speaking the few messages a tools-only server needs (`initialize`, `ping`, `tools/list`, `tools/call`) in a
Django view keeps one deployment; the SDK's own client drives it in the tests (tests/test_mcp.py).

Both eras of the protocol are spoken: the `initialize` handshake (2024-11-05 to 2025-11-25), and the per-request
envelope of 2026-07-28 (`server/discover`, then each request carrying its protocol version and the client's
capabilities in `_meta`, checked against the `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers). In that
era the answers the protocol lets clients cache say so: `server/discover` and `tools/list` are `cacheScope: public`
for TOOLS_TTL_MS (nothing they say depends on who asks); a tool's answer is not cacheable in the protocol.
"""

import json

from django.conf import settings

from . import tools

VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")  # the initialize handshake's
LATEST = VERSIONS[0]
MODERN = ("2026-07-28",)  # the per-request envelope's
SPOKEN = (*MODERN, *VERSIONS)
MAX_BODY = 64 * 1024
TOOLS_TTL_MS = 3600 * 1000  # the tools change only with a deployment

PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS = -32700, -32600, -32601, -32602
HEADER_MISMATCH, UNSUPPORTED_VERSION = -32020, -32022
# The per-request envelope's HTTP status for each error (any other: 200).
STATUS = {PARSE_ERROR: 400, INVALID_REQUEST: 400, INVALID_PARAMS: 400, HEADER_MISMATCH: 400, UNSUPPORTED_VERSION: 400}
STATUS[METHOD_NOT_FOUND] = 404
META_VERSION = "io.modelcontextprotocol/protocolVersion"
META_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"
META_SERVER_INFO = "io.modelcontextprotocol/serverInfo"

INSTRUCTIONS = (
    "The Magic: The Gathering Infraction Procedure Guide (IPG) in English, Simplified Chinese and Japanese. Quote its "
    "exact words from these tools, with the citation and link each result carries, rather than from memory. Official "
    "text and commentary are marked apart: commentary is not part of the IPG. A translation that is missing is said "
    "missing (text null); a translation that follows an older original says so in `lag`."
)


class Answer:
    """What one POST gets: an HTTP status and a JSON body (None: 202, nothing to say)."""

    def __init__(self, status, body=None):
        self.status, self.body = status, body


def error_body(message, message_id=None, code=INVALID_REQUEST, data=None):
    error = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": message_id, "error": error}


def _error(message_id, code, message, status=200, data=None):
    return Answer(status, error_body(message, message_id, code, data))


def _result(message_id, result):
    return Answer(200, {"jsonrpc": "2.0", "id": message_id, "result": result})


def _server_info():
    return {"name": "ipg", "title": "Infraction Procedure Guide", "version": settings.MCP_SERVER_VERSION}


def _initialize(params):
    asked = params.get("protocolVersion") if isinstance(params, dict) else None
    return {
        "protocolVersion": asked if asked in VERSIONS else LATEST,
        "capabilities": {"tools": {"listChanged": False}},
        "serverInfo": _server_info(),
        "instructions": INSTRUCTIONS,
    }


def _call(request, params):
    """(result, None), or (None, (code, message)) for a call the protocol refuses (an unknown tool)."""
    if not isinstance(params, dict) or not isinstance(params.get("name"), str):
        return None, (INVALID_PARAMS, "tools/call needs the tool's `name`.")
    found = tools.TOOLS.get(params["name"])
    if found is None:
        return None, (INVALID_PARAMS, f"Unknown tool {params['name'][:80]!r}: see tools/list.")
    arguments = params.get("arguments") or {}
    if not isinstance(arguments, dict):
        return _tool_error("The arguments are an object of named values."), None
    run, _described = found
    try:
        data = run(request, arguments)
    except tools.ToolError as error:
        return _tool_error(str(error)), None
    text = json.dumps(data, ensure_ascii=False)
    return {"content": [{"type": "text", "text": text}], "structuredContent": data, "isError": False}, None


def _tool_error(message):
    return {"content": [{"type": "text", "text": message}], "isError": True}


def answer(request, message):
    """The answer to one decoded JSON-RPC message."""
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        return _error(None, INVALID_REQUEST, "Send one JSON-RPC 2.0 message as a JSON object.", status=400)
    method, message_id = message.get("method"), message.get("id")
    if method is None:  # a response to a request this server never sends
        return Answer(202)
    if not isinstance(method, str):
        return _error(message_id, INVALID_REQUEST, "`method` is a string.", status=400)
    if "id" not in message:  # a notification: nothing to answer
        return Answer(202)
    if not isinstance(message_id, str | int) or isinstance(message_id, bool):
        return _error(None, INVALID_REQUEST, "`id` is a string or a number.", status=400)
    params = message.get("params") or {}
    meta = params.get("_meta") if isinstance(params, dict) else None
    if method == "server/discover" or (isinstance(meta, dict) and META_VERSION in meta):
        return _answer_per_request(request, message_id, method, params)
    if method == "initialize":
        return _result(message_id, _initialize(params))
    if method == "ping":
        return _result(message_id, {})
    if method == "tools/list":
        return _result(message_id, {"tools": tools.tool_list()})
    if method == "tools/call":
        result, refused = _call(request, params)
        return _error(message_id, *refused) if refused else _result(message_id, result)
    return _error(message_id, METHOD_NOT_FOUND, f"Method {method[:80]!r} is not offered by this server.")


def _refused(request, method, params):
    """The per-request envelope's checks, in the specification's order: (code, message, data), or None."""
    meta = params.get("_meta") if isinstance(params, dict) else None
    if not isinstance(meta, dict) or META_VERSION not in meta or META_CAPABILITIES not in meta:
        return INVALID_PARAMS, f"params._meta must carry {META_VERSION!r} and {META_CAPABILITIES!r}.", None
    version = meta[META_VERSION]
    if request.headers.get("MCP-Protocol-Version") != version:
        return HEADER_MISMATCH, "The MCP-Protocol-Version header does not match the request's protocol version.", None
    if request.headers.get("Mcp-Method") != method:
        return HEADER_MISMATCH, "The Mcp-Method header does not match the request's method.", None
    if method == "tools/call" and params.get("name") is not None and request.headers.get("Mcp-Name") != params["name"]:
        return HEADER_MISMATCH, "The Mcp-Name header does not match the tool's name.", None
    if not isinstance(version, str):
        return INVALID_PARAMS, "The protocol version is a string.", None
    if version not in MODERN:
        data = {"supported": list(MODERN), "requested": version}
        return UNSUPPORTED_VERSION, "Unsupported protocol version", data
    return None


def _answer_per_request(request, message_id, method, params):
    """A request of the per-request envelope (2026-07-28): each one stands alone, no handshake before it."""
    refused = _refused(request, method, params)
    if refused:
        code, text, data = refused
        return _error(message_id, code, text, status=STATUS[code], data=data)
    cacheable = {"resultType": "complete", "ttlMs": TOOLS_TTL_MS, "cacheScope": "public"}
    if method == "server/discover":
        return _result(
            message_id,
            {
                "supportedVersions": list(SPOKEN),
                "capabilities": {"tools": {"listChanged": False}},
                "instructions": INSTRUCTIONS,
                "_meta": {META_SERVER_INFO: _server_info()},
                **cacheable,
            },
        )
    if method == "tools/list":
        return _result(message_id, {"tools": tools.tool_list(), **cacheable})
    if method == "tools/call":
        result, refused = _call(request, params)
        if refused:
            return _error(message_id, *refused, status=STATUS[refused[0]])
        return _result(message_id, {**result, "resultType": "complete"})
    return _error(message_id, METHOD_NOT_FOUND, f"Method {method[:80]!r} is not offered by this server.", status=404)


def decode(body):
    """(message, None) of a request body; (None, Answer) for one that is not a JSON-RPC message."""
    if len(body) > MAX_BODY:
        return None, _error(None, INVALID_REQUEST, f"A message is at most {MAX_BODY} bytes.", status=413)
    try:
        message = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None, _error(None, PARSE_ERROR, "The body is not JSON.", status=400)
    if isinstance(message, list):
        return None, _error(None, INVALID_REQUEST, "Send one message per request: batches are not accepted.", 400)
    return message, None
