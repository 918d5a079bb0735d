import pytest
from django.core.management import call_command

from ipgsite.ipg.models import Section


@pytest.fixture
def ipg(db):
    """The database holding content/, as `make serve` loads it."""
    if not Section.objects.exists():
        call_command("loadcontent", verbosity=0)
    return Section.objects


@pytest.fixture
def live_ipg(transactional_db, live_server):
    """A live server whose database holds content/, for the browser tests."""
    call_command("loadcontent", verbosity=0)
    return live_server
