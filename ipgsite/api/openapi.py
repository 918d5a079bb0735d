"""The OpenAPI 3.1 document of the public JSON API, served at /api/openapi.json.

tests/test_api_openapi.py validates the document (openapi-spec-validator) and every kind of real answer against it
(openapi-core), so a change of the API that the document does not follow fails there.
"""

from ipgsite.ipg import languages
from ipgsite.ipg.models import KEY_PATTERN, NUMBER_PATTERN, Part, Penalty


def _nullable(schema):
    return {"anyOf": [schema, {"type": "null"}]}


def _per_language(schema, nullable=True):
    """An object with one property per language, each required (null where missing when `nullable`)."""
    value = _nullable(schema) if nullable else schema
    return {
        "type": "object",
        "properties": dict.fromkeys(languages.CODES, value),
        "required": list(languages.CODES),
        "additionalProperties": False,
    }


STRING = {"type": "string"}
URL = {"type": "string", "format": "uri"}
DATE = {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"}
PENALTY = _nullable({"type": "string", "enum": list(Penalty.values)})
LANGUAGE = {"type": "string", "enum": list(languages.CODES)}
ERROR_BODY = {"$ref": "#/components/schemas/Error"}


def _json(schema, description):
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _ref(name):
    return {"$ref": f"#/components/schemas/{name}"}


NOT_FOUND = _json(ERROR_BODY, "No such section, paragraph, name or release: a message says which.")
RELEASE = {
    "name": "release",
    "in": "query",
    "required": False,
    "description": "A release's effective date (YYYY-MM-DD): the text as that release froze it.",
    "schema": STRING,
}
NUMBER = {
    "name": "number",
    "in": "path",
    "required": True,
    "description": "A section's number: 2.3, or A for an appendix.",
    "schema": {"type": "string", "pattern": NUMBER_PATTERN},
}
KEY = {
    "name": "key",
    "in": "path",
    "required": True,
    "description": "A paragraph's key (definition-1, example-c): the same in every language, and it never changes. "
    "A key the paragraph had before a rename answers 301 to its new key.",
    "schema": {"type": "string", "pattern": KEY_PATTERN},
}
NAME = {
    "name": "name",
    "in": "path",
    "required": True,
    "description": "A section's title or alias in any language, any case, any dash (hce, Hidden Card Error, "
    "非公开牌张失误, 非公開カードに関する誤り).",
    "schema": STRING,
}

SCHEMAS = {
    "Error": {
        "type": "object",
        "properties": {"error": STRING},
        "required": ["error"],
    },
    "Texts": _per_language(STRING),
    "Pages": _per_language(URL, nullable=False),
    "SectionSummary": {
        "type": "object",
        "properties": {
            "number": STRING,
            "title": _ref("Texts"),
            "penalty": PENALTY,
            "has_text": {"type": "boolean"},
            "url": URL,
            "pages": _ref("Pages"),
        },
        "required": ["number", "title", "penalty", "has_text", "url", "pages"],
    },
    "Outline": {
        "type": "object",
        "properties": {
            "languages": {"type": "array", "items": LANGUAGE},
            "chapters": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "number": STRING,
                        "title": _ref("Texts"),
                        "sections": {"type": "array", "items": _ref("SectionSummary")},
                    },
                    "required": ["number", "title", "sections"],
                },
            },
        },
        "required": ["languages", "chapters"],
    },
    "Lag": {
        "description": "A translation that follows an older original than the current one.",
        "type": "object",
        "properties": {
            "follows": {
                "description": "The date of the release whose original it follows, or unknown: an original no release "
                "on this site holds.",
                "anyOf": [DATE, {"const": "unknown"}],
            },
            "changes": _nullable({"type": "string", "description": "The original's changes since, as HTML."}),
        },
        "required": ["follows", "changes"],
    },
    "Lags": {
        "description": "By language, the translations that follow an older original (in a release: than the one "
        "that release froze beside them); null where not known.",
        "anyOf": [
            {"type": "object", "propertyNames": LANGUAGE, "additionalProperties": _ref("Lag")},
            {"type": "null"},
        ],
    },
    "SectionNote": {
        "type": "object",
        "properties": {"language": LANGUAGE, "source": STRING, "body": _ref("Texts")},
        "required": ["language", "source", "body"],
    },
    "Note": {
        "type": "object",
        "description": "Commentary on the paragraph, from an annotated edition: never official text.",
        "properties": {"language": LANGUAGE, "source": STRING, "body": _ref("Texts"), "lags": _ref("Lags")},
        "required": ["language", "source", "body", "lags"],
    },
    "Section": {
        "allOf": [
            _ref("SectionSummary"),
            {
                "type": "object",
                "properties": {
                    "chapter": STRING,
                    "release": DATE,
                    "languages": {"type": "array", "items": LANGUAGE},
                    "paragraphs": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {
                                "key": STRING,
                                "part": {"type": "string", "enum": list(Part.values)},
                                "bullet": {"type": "boolean"},
                                "text": _ref("Texts"),
                                "missing": {"type": "array", "items": LANGUAGE},
                                "notes": {"type": "array", "items": _ref("SectionNote")},
                            },
                            "required": ["key", "part", "bullet", "text", "missing", "notes"],
                        },
                    },
                },
                "required": ["chapter", "languages", "paragraphs"],
            },
        ]
    },
    "Paragraph": {
        "type": "object",
        "properties": {
            "section": STRING,
            "key": STRING,
            "part": {"type": "string", "enum": list(Part.values)},
            "label": _nullable({"type": "string", "description": "An example's letter: C for example C."}),
            "bullet": {"type": "boolean"},
            "release": _nullable(DATE),
            "title": _ref("Texts"),
            "penalty": PENALTY,
            "text": {**_ref("Texts"), "description": "As stored: Markdown; null where missing."},
            "html": {**_ref("Texts"), "description": "As pages show it: sanitized HTML; null where missing."},
            "missing": {"type": "array", "items": LANGUAGE},
            "lags": _ref("Lags"),
            "notes": {"type": "array", "items": _ref("Note")},
            "former_keys": {"type": "array", "items": STRING},
            "citation": _per_language(STRING, nullable=False),
            "url": URL,
            "section_url": URL,
            "pages": _ref("Pages"),
        },
        "required": [
            "section",
            "key",
            "part",
            "label",
            "bullet",
            "release",
            "title",
            "penalty",
            "text",
            "html",
            "missing",
            "lags",
            "notes",
            "former_keys",
            "citation",
            "url",
            "section_url",
            "pages",
        ],
    },
    "Found": {
        "type": "object",
        "description": "Where a name leads: the section's number and its address, also in the Location header.",
        "properties": {"section": STRING, "url": URL},
        "required": ["section", "url"],
    },
    "Releases": {
        "type": "object",
        "properties": {
            "releases": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "date": DATE,
                        "title": _ref("Texts"),
                        "announcement": _ref("Texts"),
                        "first": {"type": "boolean"},
                        "changed_sections": _nullable({"type": "integer"}),
                        "changes": _ref("Pages"),
                    },
                    "required": ["date", "title", "announcement", "first", "changed_sections", "changes"],
                },
            }
        },
        "required": ["releases"],
    },
    "LinkerData": {
        "type": "object",
        "properties": {
            "site": URL,
            "languages": {"type": "object", "additionalProperties": STRING},
            "document": {"type": "array", "items": STRING, "description": "Names of the IPG before a number."},
            "prefixes": {"type": "array", "items": STRING},
            "suffixes": {"type": "array", "items": STRING},
            "examples": {"type": "array", "items": STRING},
            "mtr": {
                "type": "array",
                "items": STRING,
                "description": "Names of the MTR: its numbers are not the IPG's.",
            },
            "messages": {"type": "object", "additionalProperties": {"type": "object"}},
            "sections": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "number": STRING,
                        "title": _ref("Texts"),
                        "penalty": PENALTY,
                        "names": {"type": "array", "items": STRING},
                        "examples": {"type": "array", "items": STRING},
                        "lead": _nullable(STRING),
                    },
                    "required": ["number", "title", "penalty", "names", "examples", "lead"],
                },
            },
        },
        "required": [
            "site",
            "languages",
            "document",
            "prefixes",
            "suffixes",
            "examples",
            "mtr",
            "messages",
            "sections",
        ],
    },
    "Diff": {
        "description": "One language's side of a change: its diff as HTML (escaped, removed words in <del>, added "
        "words in <ins>), or its text when it did not change; null where it has no text.",
        "type": "object",
        "properties": {"unchanged": {"type": "boolean"}, "diff": _nullable(STRING)},
        "required": ["unchanged", "diff"],
    },
    "Diffs": _per_language({"$ref": "#/components/schemas/Diff"}, nullable=False),
    "Following": {
        "description": "What a translation followed in a release: follows (that release's English), older (the "
        "English of `release`, or of no release here when null), behind (an older English, which one not known), "
        "not-known (no release records it), missing (no translation).",
        "type": "object",
        "properties": {
            "state": {"type": "string", "enum": ["follows", "older", "behind", "not-known", "missing"]},
            "release": _nullable(DATE),
        },
        "required": ["state", "release"],
    },
    "History": {
        "type": "object",
        "properties": {
            "section": STRING,
            "key": STRING,
            "former_keys": {"type": "array", "items": STRING},
            "url": URL,
            "pages": _ref("Pages"),
            "history": {
                "type": "array",
                "description": "Every release in effect in which the paragraph or its notes changed, newest first.",
                "items": {
                    "type": "object",
                    "properties": {
                        "release": DATE,
                        "previous": _nullable(DATE),
                        "status": {
                            "type": "string",
                            "enum": ["first", "added", "removed", "changed", "moved", "renamed"],
                        },
                        "key": {"type": "string", "description": "The key the paragraph had in this release."},
                        "renamed_from": _nullable(STRING),
                        "part": STRING,
                        "part_change": _nullable({"type": "array", "items": STRING}),
                        "bullet_change": _nullable({"type": "array", "items": {"type": "boolean"}}),
                        "moved": {"type": "boolean"},
                        "text": _nullable(_ref("Diffs")),
                        "notes": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "properties": {
                                    "place": {"type": "integer"},
                                    "status": STRING,
                                    "language": LANGUAGE,
                                    "source": STRING,
                                    "body": _ref("Diffs"),
                                },
                                "required": ["place", "status", "language", "source", "body"],
                            },
                        },
                        "following": {
                            "type": "object",
                            "propertyNames": LANGUAGE,
                            "additionalProperties": _ref("Following"),
                        },
                        "changes": URL,
                    },
                    "required": [
                        "release",
                        "previous",
                        "status",
                        "key",
                        "renamed_from",
                        "part",
                        "part_change",
                        "bullet_change",
                        "moved",
                        "text",
                        "notes",
                        "following",
                        "changes",
                    ],
                },
            },
        },
        "required": ["section", "key", "former_keys", "url", "pages", "history"],
    },
    "Comparison": {
        "type": "object",
        "properties": {
            "from": DATE,
            "to": DATE,
            "releases": {"type": "array", "items": DATE, "description": "The releases after `from`, up to `to`."},
            "sections": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "number": STRING,
                        "status": {"type": "string", "enum": ["added", "removed", "changed"]},
                        "title": _ref("Texts"),
                        "title_change": _nullable(_ref("Diffs")),
                        "penalty_change": _nullable({"type": "array", "items": _nullable(STRING)}),
                        "changes": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "properties": {
                                    "key": STRING,
                                    "note": _nullable({"type": "integer"}),
                                    "status": {"type": "string", "enum": ["added", "removed", "changed", "moved"]},
                                    "moved": {"type": "boolean"},
                                    "part": _nullable(STRING),
                                    "part_change": _nullable({"type": "array", "items": STRING}),
                                    "bullet_change": _nullable({"type": "array", "items": {"type": "boolean"}}),
                                    "language": _nullable(LANGUAGE),
                                    "source": _nullable(STRING),
                                    "changed_in": {"type": "array", "items": LANGUAGE},
                                    "text": _ref("Diffs"),
                                },
                                "required": ["key", "note", "status", "moved", "changed_in", "text"],
                            },
                        },
                        "url": _nullable(URL),
                    },
                    "required": ["number", "status", "title", "title_change", "penalty_change", "changes", "url"],
                },
            },
            "pages": _ref("Pages"),
        },
        "required": ["from", "to", "releases", "sections", "pages"],
    },
    "OEmbed": {
        "type": "object",
        "properties": {
            "version": {"const": "1.0"},
            "type": {"const": "rich"},
            "title": STRING,
            "provider_name": STRING,
            "provider_url": URL,
            "cache_age": {"type": "integer"},
            "html": STRING,
            "width": {"type": "integer", "minimum": 1},
            "height": {"type": "integer", "minimum": 1},
            "thumbnail_url": URL,
            "thumbnail_width": {"type": "integer"},
            "thumbnail_height": {"type": "integer"},
        },
        "required": ["version", "type", "html", "width", "height"],
    },
}


def document():
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Infraction Procedure Guide",
            "version": "1",
            "description": "The IPG in English, Simplified Chinese and Japanese, aligned paragraph by paragraph. "
            "Read-only and public: any site may read it (CORS), never with cookies. Paragraph keys and these "
            "addresses never change; a renamed key redirects to the new one.",
        },
        "servers": [{"url": "/"}],
        "paths": {
            "/api/ipg/": {
                "get": {
                    "summary": "The outline: every chapter and section, with its penalty",
                    "operationId": "outline",
                    "responses": {"200": _json(_ref("Outline"), "The outline.")},
                }
            },
            "/api/ipg/{number}/": {
                "get": {
                    "summary": "A section's paragraphs by key in every language, with their notes",
                    "operationId": "section",
                    "parameters": [NUMBER, RELEASE],
                    "responses": {"200": _json(_ref("Section"), "The section."), "404": NOT_FOUND},
                }
            },
            "/api/ipg/{number}/{key}/": {
                "get": {
                    "summary": "One paragraph in every language, with its notes and lag marks",
                    "operationId": "paragraph",
                    "parameters": [NUMBER, KEY, RELEASE],
                    "responses": {
                        "200": _json(_ref("Paragraph"), "The paragraph."),
                        "301": {"description": "A former key: the paragraph's address under its new key (Location)."},
                        "404": NOT_FOUND,
                    },
                }
            },
            "/api/ipg/{number}/{key}/history/": {
                "get": {
                    "summary": "A paragraph across the releases: each release that changed it or its notes",
                    "description": "Newest first, with the key it had then, its diffs in every language and what "
                    "each translation followed in that release.",
                    "operationId": "paragraphHistory",
                    "parameters": [NUMBER, KEY],
                    "responses": {
                        "200": _json(_ref("History"), "The paragraph's history."),
                        "301": {"description": "A former key: the history under its new key (Location)."},
                        "404": NOT_FOUND,
                    },
                }
            },
            "/api/changes/": {
                "get": {
                    "summary": "What changed between any two releases, section by section",
                    "description": "Computed once per pair and kept. Dates given newest first answer 301 to the "
                    "same comparison in order.",
                    "operationId": "changes",
                    "parameters": [
                        {"name": "from", "in": "query", "required": True, "schema": STRING},
                        {"name": "to", "in": "query", "required": True, "schema": STRING},
                    ],
                    "responses": {
                        "200": _json(_ref("Comparison"), "What changed."),
                        "301": {"description": "The dates were given newest first (Location: the same in order)."},
                        "400": _json(ERROR_BODY, "A date missing, not written as YYYY-MM-DD, or both the same."),
                        "404": NOT_FOUND,
                    },
                }
            },
            "/api/ipg/{name}/": {
                "get": {
                    "summary": "A section found by name or alias: a redirect to its number's address",
                    "description": "Clients that follow redirects (every HTTP library does by default) get the "
                    "section; the body names it too. `?release=` is kept.",
                    "operationId": "sectionNamed",
                    "parameters": [NAME, RELEASE],
                    "responses": {
                        "302": _json(_ref("Found"), "The section this name means (Location: /api/ipg/2.3/)."),
                        "404": NOT_FOUND,
                    },
                }
            },
            "/api/releases/": {
                "get": {
                    "summary": "The releases in effect, newest first",
                    "operationId": "releases",
                    "responses": {"200": _json(_ref("Releases"), "The releases.")},
                }
            },
            "/api/linker/": {
                "get": {
                    "summary": "What /linker.js looks for in a page's text, and its messages in each language",
                    "operationId": "linker",
                    "responses": {"200": _json(_ref("LinkerData"), "Names, numbers and messages.")},
                }
            },
            "/oembed/": {
                "get": {
                    "summary": "oEmbed: a paragraph's card",
                    "operationId": "oembed",
                    "parameters": [
                        {
                            "name": "url",
                            "in": "query",
                            "required": True,
                            "description": "A paragraph's page on this site (optionally with ?release=), or a "
                            "section page with #key.",
                            "schema": STRING,
                        },
                        {"name": "format", "in": "query", "schema": {"type": "string", "default": "json"}},
                        {"name": "maxwidth", "in": "query", "schema": {"type": "integer", "minimum": 1}},
                        {"name": "maxheight", "in": "query", "schema": {"type": "integer", "minimum": 1}},
                    ],
                    "responses": {
                        "200": _json(_ref("OEmbed"), "The card (type rich)."),
                        "400": _json(ERROR_BODY, "maxwidth or maxheight is not a number of pixels."),
                        "404": _json(ERROR_BODY, "The URL is not a paragraph of this site."),
                        "501": {"description": "A format other than json."},
                    },
                }
            },
        },
        "components": {"schemas": SCHEMAS},
    }
