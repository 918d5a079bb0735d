"""The language switch goes to the same page in the other language, keeping its query, whatever the reader's language was."""

import pytest


def switch(client, code, target, **headers):
    response = client.get(f"/lang/{code}/", {"next": target}, **headers)
    assert response.status_code == 302
    assert response.cookies["django_language"].value == code
    return response["Location"]


@pytest.mark.parametrize(
    "target,code,expected",
    [
        ("/en/", "ja", "/ja/"),
        ("/ja/ipg/A/", "en", "/en/ipg/A/"),
        ("/zh-hans/ipg/2.4/?langs=zh-hans,en", "ja", "/ja/ipg/2.4/?langs=zh-hans,en"),
        ("/ja/penalties/?penalty=game-loss", "zh-hans", "/zh-hans/penalties/?penalty=game-loss"),
        (
            "/en/search/?q=%E8%AD%A6%E5%91%8A&language=ja&page=2",
            "zh-hans",
            "/zh-hans/search/?q=%E8%AD%A6%E5%91%8A&language=ja&page=2",
        ),
        ("/en/ipg/2.3/", "en", "/en/ipg/2.3/"),
    ],
)
def test_the_same_page_with_the_same_query(client, ipg, target, code, expected):
    assert switch(client, code, target) == expected


def test_the_page_is_read_in_its_own_language_not_the_readers(client, ipg):
    # The reader's cookie and browser say Japanese; the page they were on was English.
    client.cookies["django_language"] = "ja"
    assert (
        switch(client, "zh-hans", "/en/ipg/2.3/?langs=en,ja", HTTP_ACCEPT_LANGUAGE="ja")
        == "/zh-hans/ipg/2.3/?langs=en,ja"
    )


@pytest.mark.parametrize(
    "target,expected",
    [
        ("/", "/zh-hans/"),
        ("/en/no-such-page/?x=1", "/zh-hans/no-such-page/?x=1"),
        ("/ja/ipg/9.9/", "/zh-hans/ipg/9.9/"),
    ],
)
def test_an_unknown_path_takes_the_new_language_prefix(client, ipg, target, expected):
    location = switch(client, "zh-hans", target)
    assert location == expected
    assert client.get(location).status_code in (200, 404)


def test_the_switched_page_is_in_the_new_language(client, ipg):
    location = switch(client, "ja", "/en/ipg/2.3/?langs=en,ja")
    assert '<html lang="ja">' in client.get(location).content.decode()
