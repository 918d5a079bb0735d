"""A NUL character in any query parameter, which PostgreSQL cannot hold in a text: a clear answer (a page or a 404),
never a 500, on every page type that reads its parameters (tests/pages.py), and on the other answers that read some."""

from urllib.parse import urlencode

import pytest

from pages import OTHER_ANSWERS, PAGE_TYPES

pytestmark = pytest.mark.database  # PostgreSQL refuses a NUL in a text; SQLite keeps it

NUL = "2\x00"


def with_params(url, params):
    return url + ("&" if "?" in url else "?") + urlencode(params)


def cases():
    """(url, params): each parameter a page reads holding a NUL, alone and beside the page's own parameters, then all of
    them at once; the same for the other answers."""
    for page in PAGE_TYPES:
        for name in page.reads:
            yield pytest.param(page.path, {name: NUL}, id=f"{page.name}-{name}")
            if page.path != page.url:
                yield pytest.param(page.url, {name: NUL}, id=f"{page.name}-{name}-beside")
        if len(page.reads) > 1:
            yield pytest.param(page.path, dict.fromkeys(page.reads, NUL), id=f"{page.name}-all")
    for url, names in OTHER_ANSWERS:
        for name in names:
            yield pytest.param(url, {name: NUL}, id=f"{url}-{name}")
    yield pytest.param("/en/list/", {"p": "2.3#" + NUL}, id="list-key")
    yield pytest.param("/api/ipg/" + NUL + "/", {}, id="api-number")
    yield pytest.param("/oembed/", {"url": "http://testserver/en/ipg/2.3/example-c/" + NUL}, id="oembed-url")
    yield pytest.param("/lang/ja/", {"next": "/en/" + NUL}, id="lang-next-path")


@pytest.mark.parametrize("url, params", list(cases()))
def test_a_nul_in_a_parameter_gets_a_clear_answer(client, ipg, url, params):
    response = client.get(with_params(url, params) if params else url)
    assert response.status_code in (200, 301, 302, 400, 404), (url, params, response.status_code)
