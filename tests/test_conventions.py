"""Conventions that clients check: the feed's author, the icon browsers ask for, and forms that say where they go."""

import xml.etree.ElementTree as ET

import pytest

from pages import parse

ATOM = "{http://www.w3.org/2005/Atom}"


@pytest.mark.parametrize("code,name", [("en", "Infraction Procedure Guide"), ("ja", "違反処置指針")])
def test_the_atom_feed_names_its_author(client, ipg, code, name):
    feed = ET.fromstring(client.get(f"/{code}/changes/feed/").content)
    authors = feed.findall(f"{ATOM}author")  # RFC 4287 4.1.1: a feed without one needs one in every entry
    assert [a.findtext(f"{ATOM}name") for a in authors] == [name]


def test_favicon_is_the_sites_icon(client, ipg):
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    icon = client.get(response["Location"])
    assert icon.status_code == 200
    assert b"".join(icon.streaming_content)[:4] == b"\x00\x00\x01\x00"  # an ICO file
    assert client.get("/favicon.png").status_code == 404  # the near miss: only the name browsers ask for


@pytest.mark.parametrize(
    "path",
    [
        "/en/ipg/2.3/",
        "/en/ipg/2.3/?langs=en,ja",
        "/en/ipg/2.3/example-c/",
        "/en/finder/",
        "/en/quiz/",
        "/en/list/?p=2.3:example-c&langs=en,ja",
        "/en/search/?q=card",
    ],
)
def test_no_form_has_an_empty_action(client, ipg, path):
    page = parse(client.get(path).content)
    forms = page.find_all("form")
    assert forms
    for form in forms:
        assert form.attrs.get("action"), form.attrs  # the Nu HTML checker: action must be a non-empty URL
    compare = page.find("form", class_="compare")
    if compare:
        assert compare.attrs["action"] == path.split("?")[0]
