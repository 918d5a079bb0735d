"""ipgsite/gunicorn.conf.py without the warming, as it was before: the baseline of bench/load_bench.py, never served."""

from pathlib import Path

_config = Path(__file__).resolve().parent.parent / "ipgsite" / "gunicorn.conf.py"
exec(compile(_config.read_text(), str(_config), "exec"))  # noqa: S102 — the site's own configuration, then:
warm_workers = False
