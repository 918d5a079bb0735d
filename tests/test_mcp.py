"""The MCP server at /mcp, driven by the official SDK's own client against a live server: the handshake, the tools,
their answers (exact text, language, official text or commentary, lag, citation), and arguments it cannot use
answered as tool errors, never as a failure. The HTTP side (methods, limits, rate) through Django's client."""

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from io import StringIO

import mcp  # the official SDK (a test dependency): its own client drives the server
import pytest
from django.core.management import call_command
from django.test import override_settings
from mcp.shared.exceptions import MCPError

from edits import write

TOOLS = {"search_ipg", "get_paragraph", "get_section", "list_sections", "finder_step", "what_changed"}


def session(url, calls, mode="legacy"):
    """Connect with the SDK's client, run `calls(client)` and return what it returns."""

    async def run():
        async with mcp.Client(f"{url}/mcp", mode=mode, read_timeout_seconds=60) as client:
            return await calls(client)

    # In a thread of its own: once a browser test has run, Playwright's sync API leaves an event loop running in this one.
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, run()).result()


def structured(result):
    assert result.is_error is not True, result.content[0].text
    assert json.loads(result.content[0].text) == result.structured_content  # the same, for clients that read text
    return result.structured_content


@pytest.mark.writes  # publishes a release
def test_the_sdk_client_initializes_lists_the_tools_and_calls_each(live_ipg):
    call_command("publishrelease", "2025-02-10", stdout=StringIO())

    async def calls(client):
        listed = await client.list_tools()
        results = {
            "search": await client.call_tool("search_ipg", {"query": "Dark Confidant", "language": "en"}),
            "paragraph": await client.call_tool(
                "get_paragraph", {"section": "hce", "key": "upgrade-1", "languages": ["en", "ja", "zh-hans"]}
            ),
            "section": await client.call_tool("get_section", {"section": "2.4", "languages": ["zh-hans"]}),
            "old": await client.call_tool("get_section", {"section": "2.3", "release": "2024-09-23"}),
            "sections": await client.call_tool("list_sections", {"language": "ja"}),
            "finder": await client.call_tool("finder_step", {"answers": [], "languages": ["ja"]}),
            "changed": await client.call_tool("what_changed", {"from": "2024-09-23", "to": "2025-02-10"}),
        }
        return client.protocol_version, client.server_info, client.instructions, listed, results

    version, info, instructions, listed, results = session(live_ipg.url, calls)
    assert version == "2025-11-25" and info.name == "ipg" and "exact words" in instructions
    assert {tool.name for tool in listed.tools} == TOOLS
    assert all(tool.annotations.read_only_hint for tool in listed.tools)

    hits = structured(results["search"])["results"]
    assert hits and hits[0]["key"] == "example-c" and hits[0]["texts"][0]["language"] == "en"
    assert "Dark Confidant" in hits[0]["texts"][0]["text"] and hits[0]["url"].startswith(live_ipg.url)

    upgrade = structured(results["paragraph"])
    assert upgrade["citation"] == "IPG 2.3 Upgrade (2025-02-10)"
    assert upgrade["url"] == f"{live_ipg.url}/en/ipg/2.3/upgrade-1/?release=2025-02-10"
    english, japanese, chinese = upgrade["texts"]
    assert (english["language"], english["kind"], english["lag"]) == ("en", "official", None)
    assert english["text"].startswith("If a face-down card cast using a morph or disguise ability")
    assert japanese["lag"] == {"follows": "unknown", "changes": None}  # translates an older English (seed 001)
    assert chinese["text"] is not None and chinese["lag"] == {"follows": "unknown", "changes": None}
    (note,) = upgrade["notes"]
    assert note[0]["kind"] == "commentary" and note[0]["language"] == "ja" and note[0]["source"]

    mulligan = structured(results["section"])
    assert mulligan["section"] == "2.4" and mulligan["title"]["zh-hans"]
    missing = next(p for p in mulligan["paragraphs"] if p["key"] == "definition-2")
    assert missing["texts"] == [{"language": "zh-hans", "kind": "official", "text": None, "lag": None}]
    assert structured(results["old"])["release"] == "2024-09-23"
    assert any(s["section"] == "2.3" and s["has_text"] for s in structured(results["sections"])["sections"])
    first = structured(results["finder"])
    assert first["question"]["answers"] and first["url"] == f"{live_ipg.url}/ja/finder/"
    assert structured(results["changed"])["sections"] == []  # nothing was edited between the two releases


def test_arguments_it_cannot_use_are_tool_errors_not_failures(live_ipg):
    bad = [
        ("get_paragraph", {"section": "2.3", "key": "example-q"}, "has no paragraph 'example-q'"),
        ("get_paragraph", {"section": "9.9", "key": "example-c"}, "No section of the IPG"),
        ("get_paragraph", {"section": "2.3"}, "`key` is required"),
        ("get_paragraph", {"section": ["2.3"], "key": "example-c"}, "must be a string"),
        ("get_section", {"section": "2.3", "languages": ["xx"]}, "names no language"),
        ("get_section", {"section": "2.3", "release": "last year"}, "YYYY-MM-DD"),
        ("get_section", {"section": "2.3", "release": "2001-01-01"}, "no release"),
        ("search_ipg", {"query": "x" * 5000}, "at most"),
        ("search_ipg", {"query": "!!!"}, "no word"),
        ("search_ipg", {"query": "card\x00"}, "NUL"),
        ("finder_step", {"answers": ["no-such-answer"]}, "start again"),
        ("finder_step", {"answers": "in-game" + "/x" * 200}, "at most"),
        ("what_changed", {"from": "2024-09-23", "to": "2024-09-23"}, "two different"),
        ("what_changed", {"from": "2024-09-23", "to": "1999-01-01"}, "No release of 1999-01-01"),
    ]

    async def calls(client):
        return [await client.call_tool(name, arguments) for name, arguments, _message in bad]

    for result, (_name, _arguments, message) in zip(session(live_ipg.url, calls), bad, strict=True):
        assert result.is_error is True and message in result.content[0].text, result.content[0].text


def test_an_unknown_tool_is_a_protocol_error(live_ipg):
    async def calls(client):
        with pytest.raises(MCPError, match="Unknown tool"):
            await client.call_tool("delete_everything", {})
        return await client.list_tools()  # the connection still works

    session(live_ipg.url, calls)


def test_a_client_of_the_per_request_protocol_needs_no_handshake(live_ipg):
    """The SDK's default: probe `server/discover`, then send every request with its own envelope (2026-07-28)."""

    async def calls(client):
        listed = await client.list_tools()
        paragraph = await client.call_tool("get_paragraph", {"section": "2.3", "key": "example-c", "languages": ["ja"]})
        wrong = await client.call_tool("get_paragraph", {"section": "2.3", "key": "example-q"})
        return client.protocol_version, client.server_info, listed, paragraph, wrong

    version, info, listed, paragraph, wrong = session(live_ipg.url, calls, mode="auto")
    assert version == "2026-07-28" and info.name == "ipg"
    assert {tool.name for tool in listed.tools} == TOOLS
    assert structured(paragraph)["texts"][0]["text"].startswith("プレイヤーが《闇の腹心》")
    assert wrong.is_error is True and "example-q" in wrong.content[0].text


def post(client, message, **headers):
    body = message if isinstance(message, str | bytes) else json.dumps(message)
    return client.post("/mcp", body, content_type="application/json", **headers)


def test_each_post_is_answered_on_its_own_with_no_session(client, ipg):
    response = post(
        client, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18"}}
    )
    assert response.status_code == 200 and response.json()["result"]["protocolVersion"] == "2025-06-18"
    assert "Mcp-Session-Id" not in response and response["Cache-Control"] == "no-store"
    assert post(client, {"jsonrpc": "2.0", "method": "notifications/initialized"}).status_code == 202
    # Any worker answers any request: no initialize needed first.
    listed = post(client, {"jsonrpc": "2.0", "id": "a", "method": "tools/list"}, HTTP_MCP_PROTOCOL_VERSION="2025-06-18")
    assert {tool["name"] for tool in listed.json()["result"]["tools"]} == TOOLS


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ("{not json", 400, -32700),
        ('[{"jsonrpc": "2.0", "id": 1, "method": "ping"}]', 400, -32600),
        ('{"jsonrpc": "1.0", "id": 1, "method": "ping"}', 400, -32600),
        ('{"jsonrpc": "2.0", "id": 1, "method": "resources/list"}', 200, -32601),
        ('{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": 7}}', 200, -32602),
        ('{"jsonrpc": "2.0", "id": {"a": 1}, "method": "ping"}', 400, -32600),
        (b"\xff\xfe", 400, -32700),
        ('{"a": ' * 5000 + "1" + "}" * 5000, 400, -32700),
    ],
)
def test_messages_it_cannot_read_get_a_json_rpc_error_never_a_500(client, ipg, body, status, code):
    response = post(client, body)
    assert response.status_code == status and response.json()["error"]["code"] == code


def test_other_methods_large_bodies_and_unknown_versions_are_refused(client, ipg):
    assert client.get("/mcp").status_code == 405 and client.delete("/mcp").status_code == 405
    huge = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"x": "y" * 100_000}})
    assert post(client, huge).status_code == 413
    assert (
        post(client, {"jsonrpc": "2.0", "id": 1, "method": "ping"}, HTTP_MCP_PROTOCOL_VERSION="1999-01-01").status_code
        == 400
    )


@override_settings(MCP_RATE_LIMIT=3)
def test_requests_are_limited_per_address(client, ipg):
    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    assert [post(client, ping).status_code for _ in range(3)] == [200, 200, 200]
    refused = post(client, ping)
    assert refused.status_code == 429 and refused["Retry-After"] == "60"
    assert post(client, ping, REMOTE_ADDR="192.0.2.7").status_code == 200  # another reader


def test_a_lagging_translation_says_so_with_the_changes_since(client, ipg):
    write("2.3", "example-c", "en", "A player resolves a Dark Confidant trigger and forgets to reveal TESTCARD.")
    answer = post(
        client,
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "tools/call",
            "params": {"name": "get_paragraph", "arguments": {"section": "2.3", "key": "example-c", "languages": "ja"}},
        },
    ).json()["result"]["structuredContent"]
    (japanese,) = answer["texts"]
    assert japanese["lag"]["follows"] == "2024-09-23" and "<ins>" in japanese["lag"]["changes"]
    assert answer["citation"] == "IPG 2.3節 例C（2024-09-23の版）"


ENVELOPE = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}


def per_request(client, method, params=None, version="2026-07-28", **headers):
    params = {**(params or {}), "_meta": {**ENVELOPE, "io.modelcontextprotocol/protocolVersion": version}}
    headers = {"HTTP_MCP_PROTOCOL_VERSION": version, "HTTP_MCP_METHOD": method, **headers}
    return post(client, {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}, **headers)


def test_what_the_per_request_protocol_lets_clients_cache_says_so(client, ipg):
    discovered = per_request(client, "server/discover").json()["result"]
    assert "2026-07-28" in discovered["supportedVersions"] and "2025-11-25" in discovered["supportedVersions"]
    listed = per_request(client, "tools/list").json()["result"]
    for result in (discovered, listed):
        assert (result["cacheScope"], result["ttlMs"], result["resultType"]) == ("public", 3600000, "complete")
    called = per_request(
        client, "tools/call", {"name": "list_sections", "arguments": {}}, HTTP_MCP_NAME="list_sections"
    ).json()["result"]
    assert called["resultType"] == "complete" and "ttlMs" not in called


@pytest.mark.parametrize(
    ("method", "params", "version", "headers", "status", "code"),
    [
        ("tools/list", {}, "2026-07-28", {"HTTP_MCP_METHOD": "tools/call"}, 400, -32020),
        ("tools/call", {"name": "list_sections"}, "2026-07-28", {"HTTP_MCP_NAME": "get_section"}, 400, -32020),
        ("tools/list", {}, "2099-01-01", {"HTTP_MCP_PROTOCOL_VERSION": "2026-07-28"}, 400, -32020),
        ("tools/list", {}, "2099-01-01", {}, 400, -32022),
        ("resources/list", {}, "2026-07-28", {}, 404, -32601),
        ("tools/call", {"name": "nothing"}, "2026-07-28", {"HTTP_MCP_NAME": "nothing"}, 400, -32602),
    ],
)
def test_the_per_request_envelope_is_checked(client, ipg, method, params, version, headers, status, code):
    response = per_request(client, method, params, version, **headers)
    assert response.status_code == status and response.json()["error"]["code"] == code
    if code == -32022:
        assert response.json()["error"]["data"]["supported"][0] == "2026-07-28"
