"""The OpenAPI document describes the API as it answers: the document is valid OpenAPI 3.1, and real answers of every
operation (found and not found, redirects, a release's text) validate against it."""

import pytest
from openapi_core import OpenAPI
from openapi_core.contrib.django import DjangoOpenAPIRequest, DjangoOpenAPIResponse
from openapi_core.validation.response.exceptions import InvalidData
from openapi_spec_validator import validate

from ipgsite.editing import writing


@pytest.fixture
def spec(client, ipg):
    response = client.get("/api/openapi.json")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    document = response.json()
    validate(document)  # raises on anything OpenAPI 3.1 does not allow
    return OpenAPI.from_dict(document)


def checked(spec, client, url, status):
    response = client.get(url)
    assert response.status_code == status, (url, response.content[:300])
    spec.validate_response(DjangoOpenAPIRequest(response.wsgi_request), DjangoOpenAPIResponse(response))
    return response


def test_every_operation_answers_as_documented(spec, client):
    checked(spec, client, "/api/ipg/", 200)
    checked(spec, client, "/api/ipg/2.3/", 200)
    checked(spec, client, "/api/ipg/4.8/", 200)  # a section without text
    checked(spec, client, "/api/ipg/2.3/?release=2024-09-23", 200)
    checked(spec, client, "/api/ipg/2.3/example-c/", 200)
    checked(spec, client, "/api/ipg/2.3/upgrade-1/", 200)  # with lag marks
    checked(spec, client, "/api/ipg/2.4/remedy-1/", 200)  # with missing languages
    checked(spec, client, "/api/ipg/2.3/example-c/?release=2024-09-23", 200)
    checked(spec, client, "/api/ipg/hce/", 302)
    checked(spec, client, "/api/releases/", 200)
    checked(spec, client, "/api/linker/", 200)
    checked(spec, client, "/oembed/?url=http://testserver/ja/ipg/2.3/example-c/&format=json&maxwidth=300", 200)


def test_errors_answer_as_documented(spec, client):
    checked(spec, client, "/api/ipg/7.7/", 404)
    checked(spec, client, "/api/ipg/2.3/example-z/", 404)
    checked(spec, client, "/api/ipg/2.3/example-c/?release=2020-01-01", 404)
    checked(spec, client, "/api/ipg/no-such-name/", 404)
    checked(spec, client, "/oembed/?url=http://elsewhere.example/en/ipg/2.3/example-c/", 404)
    checked(spec, client, "/oembed/?url=http://testserver/en/ipg/2.3/example-c/&maxwidth=wide", 400)


def test_a_paragraph_with_a_lag_after_an_edit_still_answers_as_documented(spec, client, ipg):
    paragraph = ipg.get(number="2.3").paragraphs.get(key="example-c")
    writing.write_text(
        paragraph, "en", paragraph.text_en + " More.", by=writing.CONTENT_FILES, base_revision=writing.LATEST
    )
    checked(spec, client, "/api/ipg/2.3/example-c/", 200)


def test_the_validation_fails_on_an_answer_the_document_does_not_describe(spec, client):
    # The near miss: the same check refuses an answer missing a required field.
    response = client.get("/api/ipg/2.3/example-c/")
    response.content = response.content.replace(b'"citation"', b'"quotation"')
    with pytest.raises(InvalidData):
        spec.validate_response(DjangoOpenAPIRequest(response.wsgi_request), DjangoOpenAPIResponse(response))


def test_histories_and_comparisons_answer_as_documented(spec, client, ipg):
    from io import StringIO

    from django.core.management import call_command

    paragraph = ipg.get(number="2.3").paragraphs.get(key="example-c")
    writing.write_text(
        paragraph, "en", paragraph.text_en + " More.", by=writing.CONTENT_FILES, base_revision=writing.LATEST
    )
    call_command("publishrelease", "2025-02-10", stdout=StringIO())
    writing.save_structure(paragraph, {"key": "example-c-renamed"}, by=writing.CONTENT_FILES)
    call_command("publishrelease", "2025-06-01", stdout=StringIO())
    checked(spec, client, "/api/ipg/2.3/example-c-renamed/history/", 200)
    checked(spec, client, "/api/ipg/2.3/upgrade-1/history/", 200)
    checked(spec, client, "/api/ipg/2.3/example-c/history/", 301)
    checked(spec, client, "/api/ipg/2.3/example-z/history/", 404)
    checked(spec, client, "/api/changes/?from=2024-09-23&to=2025-06-01", 200)
    checked(spec, client, "/api/changes/?from=2024-09-23&to=2025-02-10", 200)
    checked(spec, client, "/api/changes/?from=2025-06-01&to=2024-09-23", 301)
    checked(spec, client, "/api/changes/?from=2024-09-23&to=soon", 400)
    checked(spec, client, "/api/changes/?from=2024-09-23&to=2020-01-01", 404)
