"""Other sites' pages read the public API, oEmbed and the linker (CORS), never with credentials; nothing else
answers another origin."""

import pytest

ORIGIN = {"HTTP_ORIGIN": "https://judges-blog.example"}


@pytest.mark.parametrize(
    "url",
    [
        "/api/ipg/",
        "/api/ipg/2.3/",
        "/api/ipg/2.3/example-c/",
        "/api/linker/",
        "/api/openapi.json",
        "/api/releases/",
        "/linker.js",
        "/oembed/?url=http://testserver/en/ipg/2.3/example-c/&format=json",
    ],
)
def test_public_read_only_endpoints_answer_any_origin_without_credentials(client, ipg, url):
    for _ in range(2):  # the second answer comes from the page cache where the view is cached
        response = client.get(url, **ORIGIN)
        assert response.status_code == 200
        assert response["Access-Control-Allow-Origin"] == "*"
        assert "Access-Control-Allow-Credentials" not in response
        assert not response.cookies


def test_a_redirect_by_name_and_a_404_answer_other_origins_too(client, ipg):
    # A script that follows the redirect, or reads the message, needs the header on both.
    assert client.get("/api/ipg/hce/", **ORIGIN)["Access-Control-Allow-Origin"] == "*"
    assert client.get("/api/ipg/7.7/", **ORIGIN)["Access-Control-Allow-Origin"] == "*"


def test_a_preflight_allows_reading_only(client, ipg):
    response = client.options("/api/ipg/2.3/", HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET", **ORIGIN)
    assert response.status_code == 200 and response["Access-Control-Allow-Origin"] == "*"
    assert set(response["Access-Control-Allow-Methods"].split(", ")) == {"GET", "HEAD", "OPTIONS"}
    assert "Access-Control-Allow-Credentials" not in response


@pytest.mark.parametrize(
    "url",
    [
        "/admin/",
        "/admin/login/",
        "/admin/translate/",
        "/en/ipg/2.3/",
        "/en/ipg/2.3/example-c/",
        "/en/search/?q=hce",
        "/offline/pages.json?lang=en",
        "/sw.js",
        "/apiary/",
        "/en/api/ipg/",
    ],
)
def test_nothing_else_answers_another_origin(client, ipg, url):
    response = client.get(url, **ORIGIN)
    assert "Access-Control-Allow-Origin" not in response, url
    preflight = client.options(url, HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST", **ORIGIN)
    assert "Access-Control-Allow-Origin" not in preflight, url
