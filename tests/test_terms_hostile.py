"""Hostile input on the termbase's paths: any text for lookup, any bytes for a TBX import, any kind for the glossary."""

from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ipgsite.terms.lookup import terms_in
from ipgsite.terms.tbx import TBXError, parse_tbx

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@SETTINGS
@given(text=st.text())
def test_lookup_takes_any_text(ipg, text):
    found = terms_in(text)
    assert all(term.key for term in found)


@SETTINGS
@given(data=st.binary(max_size=2000) | st.text(max_size=500).map(lambda t: f"<martif>{t}</martif>".encode()))
def test_a_tbx_file_is_read_or_refused_with_a_reason(ipg, data):
    try:
        parse_tbx(data)
    except TBXError as exc:
        assert exc.problems and all(isinstance(p, str) and p for p in exc.problems)


@SETTINGS
@given(kind=st.text(st.characters(blacklist_categories=("Cs",)), max_size=300))
def test_the_glossary_answers_any_kind_with_a_page_or_a_404(ipg, kind):
    response = Client().get("/en/glossary/", {"kind": kind})
    assert response.status_code in (200, 404)
