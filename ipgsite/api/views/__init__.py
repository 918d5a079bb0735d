"""The IPG as JSON, read-only and public: other sites' pages read it (CORS, settings.CORS_URLS_REGEX), never with
cookies. Described in `openapi.py`."""
