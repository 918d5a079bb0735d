# Two commands set everything up on a fresh machine: `make serve` and `make test`. `make serve` installs only what
# serving needs (no root, once Python 3.11 and gettext are there); `make test` adds the tests' own tools (test-deps).
# Development runs with DEBUG=1: without it the settings are a deployment's, and refuse to start with no SECRET_KEY.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
HOST ?= 127.0.0.1
PORT ?= 8000
PG_URL ?= postgres://postgres@127.0.0.1:5432/ipg

.PHONY: serve admin install test-deps messages fonts java db test test-postgres browser-deps edge-deps check clean bench-page-weight bench-search bench-releases bench-memory bench-import bench bench-edge lint fmt test-fast screenshots docs bench-beyond cat-deps test-postgres-all bench-load

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,dev]'
	touch $@

## The XLIFF 1.2 schema the exchange tests validate against: Debian's php-symfony-translation ships it (with the
## xml.xsd it imports); only the .deb is downloaded and unpacked into the virtualenv, nothing is installed.
XLIFF_SCHEMA := $(VENV)/share/xliff/xliff-core-1.2-strict.xsd
$(XLIFF_SCHEMA): | $(VENV)/.installed
	rm -rf $(VENV)/share/xliff-deb && mkdir -p $(VENV)/share/xliff-deb $(dir $@)
	cd $(VENV)/share/xliff-deb && (apt-get download -qq php-symfony-translation 2>/dev/null || \
		(apt-get update -qq && apt-get download -qq php-symfony-translation))
	dpkg-deb -x $(VENV)/share/xliff-deb/php-symfony-translation_*.deb $(VENV)/share/xliff-deb/root
	cp $(VENV)/share/xliff-deb/root/usr/share/php/Symfony/Component/Translation/Resources/schemas/xliff-core-1.2-strict.xsd \
		$(VENV)/share/xliff-deb/root/usr/share/php/Symfony/Component/Translation/Resources/schemas/xml.xsd $(dir $@)
	rm -rf $(VENV)/share/xliff-deb

## What serving needs: the virtualenv (with the test and lint tools, which need no root) and the compiled interface.
install: $(VENV)/.installed messages

## What the tests add: axe-core and vnu-jar (npm), a Java runtime for vnu, the XLIFF schema (root may be needed).
test-deps: install node_modules/.installed java $(XLIFF_SCHEMA)

## axe-core, which the accessibility tests inject into pages, and vnu-jar, the Nu HTML checker of
## tests/test_markup_valid.py (package.json; npm from Debian when missing).
node_modules/.installed: package.json
	@command -v npm >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null)
	npm install --no-audit --no-fund --loglevel=error
	touch $@

## A Java runtime for the Nu HTML checker (vnu.jar): Debian's default JRE when `java` is missing.
java:
	@command -v java >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq default-jre-headless >/dev/null)

## Compile the interface translations in locale/ (needs gettext's msgfmt).
messages: $(VENV)/.installed
	@command -v msgfmt >/dev/null || (apt-get update -qq && apt-get install -y -qq gettext)
	DEBUG=1 $(PY) manage.py compilemessages --ignore=.venv -v0

## The CJK font the link preview pictures of shared paragraphs are drawn with (Debian's fonts-noto-cjk).
fonts:
	@fc-list 2>/dev/null | grep -qi "noto sans cjk" || \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fontconfig fonts-noto-cjk >/dev/null)

## Migrate the local SQLite database and load content/ into it, unless the database holds edits made since the last
## load or export (in the admin): then it loads nothing and says so, and the edits stay (exportcontent writes them).
## Without the CJK font (root installs it) the site is served all the same, without link preview pictures.
db: install
	@$(MAKE) --no-print-directory -s fonts 2>/dev/null || \
		echo "make: fonts-noto-cjk is missing and could not be installed (as root: make fonts): no link preview pictures."
	DEBUG=1 $(PY) manage.py migrate --noinput -v0
	DEBUG=1 $(PY) manage.py loadcontent --skip-if-edited

serve: db
	DEBUG=1 $(PY) manage.py runserver $(HOST):$(PORT)

## An account for the admin (/admin/), asked for on the terminal (Django's createsuperuser).
admin: install
	DEBUG=1 $(PY) manage.py migrate --noinput -v0
	DEBUG=1 $(PY) manage.py createsuperuser

## Headless Chromium and CJK fonts for the browser tests, from Debian's packages.
browser-deps: java
	@if ! command -v chromium >/dev/null || ! fc-list 2>/dev/null | grep -qi "noto sans cjk"; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk >/dev/null; \
	fi

## Varnish 7 from Debian's packages, for the tests and the benchmark of the site served from the edge (varnishd is
## started by them on free ports, never as a service).
edge-deps:
	@command -v varnishd >/dev/null || [ -x /usr/sbin/varnishd ] || \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq varnish >/dev/null)

## OmegaT 3.6 from Debian's packages, for the test that translates an exported XLIFF with OmegaT's console mode and
## imports the result (tests/test_exchange_omegat.py; skipped, saying so, where OmegaT is missing).
cat-deps: java
	@command -v omegat >/dev/null || \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq omegat >/dev/null)

## The suites run in one process per core (pytest-xdist, WORKERS=1 for one), each module's tests in one process.
WORKERS ?= auto
PARALLEL := -n $(WORKERS) --dist loadfile

test: test-deps browser-deps edge-deps cat-deps
	$(BIN)/pytest $(PARALLEL)

## The suite without the browser and scale-out tests (markers `browser`, `scaleout`), for a quick check while working.
test-fast: test-deps fonts
	$(BIN)/pytest $(PARALLEL) -m "not browser and not scaleout"

## The tests whose behaviour depends on the database (marker `database`: search, locking, transactions that commit,
## what PostgreSQL refuses; docs/tests.md) again, against PostgreSQL 15 (DATABASE_URL, default $(PG_URL)).
test-postgres: test-deps fonts
	DATABASE_URL=$(PG_URL) $(BIN)/pytest $(PARALLEL) -m "database and not browser"

## The whole suite against PostgreSQL, for occasional use (CI runs `make test-postgres`).
test-postgres-all: test-deps browser-deps edge-deps
	DATABASE_URL=$(PG_URL) $(BIN)/pytest $(PARALLEL)

## Bytes on the wire for 2.3 in three languages, against its bare text.
bench-page-weight: install
	DEBUG=1 $(PY) bench/page_weight.py

## Search and translation memory latency (p50, p95) and peak memory at 1x and 50x the corpus, the entries kept in memory:
## on SQLite, then on PostgreSQL (the server of $(PG_URL); a throwaway database is created and dropped).
## The tests' settings: development, with DEBUG off so that no query log adds to the timings.
bench-search: install
	DJANGO_SETTINGS_MODULE=ipgsite.test_settings $(PY) bench/search_bench.py
	DJANGO_SETTINGS_MODULE=ipgsite.test_settings $(PY) bench/search_bench.py --postgres $(PG_URL)

## Translation memory suggestions at 1x and 50x the corpus: the kept entries' candidates against every text, as ratios.
bench-memory: install
	DJANGO_SETTINGS_MODULE=ipgsite.test_settings $(PY) bench/memory_bench.py
	DJANGO_SETTINGS_MODULE=ipgsite.test_settings $(PY) bench/memory_bench.py --postgres $(PG_URL)

## Publishing a release and rendering its changes page at 50x the corpus, as ratios to rendering a section page.
bench-releases: install
	DJANGO_SETTINGS_MODULE=ipgsite.test_settings $(PY) bench/release_bench.py

## A paragraph's history, a comparison of the first and last of three releases, and MCP calls at 50x the corpus, as
## ratios to a section page and to the API's paragraph: on SQLite, then on PostgreSQL (a throwaway database).
bench-beyond: install
	DJANGO_SETTINGS_MODULE=ipgsite.test_settings $(PY) bench/beyond_bench.py
	DJANGO_SETTINGS_MODULE=ipgsite.test_settings $(PY) bench/beyond_bench.py --postgres $(PG_URL)

## Proposing a whole document (30 sections at 50x the seeds' text) and a 1 MB PDF (printed by Chromium) and its
## copied text: seconds and peak memory, against reading and splitting the text, as ratios; then the corpus's table.
bench-import: install
	DJANGO_SETTINGS_MODULE=ipgsite.test_settings $(PY) bench/import_bench.py --corpus

## HTTP load under gunicorn with wrk (Debian's package, installed when missing): outline, compare page, search
## and a static file of the same size, BENCH_DURATION (30) s each at BENCH_CONNECTIONS (64) connections.
bench: install
	@command -v wrk >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null)
	$(PY) bench/http_bench.py

## Requests/s through Varnish (the VCL of `manage.py varnishvcl`), direct to gunicorn, and for a static file, in
## alternating slices of one run, as ratios; then a mixed workload through Varnish with readers' cookies, and its hit
## ratio. Installs Debian's varnish and wrk when missing.
bench-edge: install edge-deps
	@command -v wrk >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null)
	$(PY) bench/edge_bench.py

## Fast at every door, as deployed (gunicorn with the production settings, PostgreSQL on $(PG_URL)'s server, Redis), each
## figure against its baseline in the same run: a fresh worker's first request and first search against its next ones
## (warmed master against unwarmed), workers replaced under load, the cached compare page (with and without the fast
## lane) against a static file of the same bytes, 50 searches in three languages against the section page at 64
## connections, pictures never drawn asked for at 64 connections, a load of 10x the content against the same load
## drawing its pictures as loads did before, picture bytes. Databases BENCH_DATABASE and BENCH_DATABASE_load
## (default ipg_bench_load) are created and dropped (bench/load_bench.py). Then an uncached search page against its
## search step at 50x the content (bench/search_view_bench.py, a throwaway database on the same server).
bench-load: install
	@command -v wrk >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null)
	$(PY) bench/load_bench.py --postgres $(PG_URL)
	DJANGO_SETTINGS_MODULE=ipgsite.test_settings $(PY) bench/search_view_bench.py --postgres $(PG_URL)

## Every page type at 390×844 and 1280×900 in headless Chromium, for a designer's pass:
## artifacts/screenshots/<width>/<page>.png (bench/screenshots.py).
screenshots: install browser-deps
	$(PY) bench/screenshots.py

check: install
	DEBUG=1 $(PY) manage.py checkcontent

## Every check CI makes before the tests, all of them even when one fails: ruff lint and format, djhtml on the
## templates, migrations matching the models, the import contracts in pyproject.toml (lint-imports), and the docs.
TEMPLATES = templates $(wildcard ipgsite/*/templates)
lint: install
	@status=0; \
	echo "ruff check"; $(BIN)/ruff check --output-format concise . || status=1; \
	echo "ruff format --check"; $(BIN)/ruff format --check . || status=1; \
	echo "djhtml --check"; $(BIN)/djhtml --check $(TEMPLATES) || status=1; \
	echo "makemigrations --check"; DEBUG=1 $(PY) manage.py makemigrations --check --dry-run || status=1; \
	echo "lint-imports"; $(BIN)/lint-imports --no-cache || status=1; \
	echo "docs"; $(BIN)/sphinx-build -W --keep-going -q -b html docs docs/_build/html || status=1; \
	exit $$status

## The documentation in docs/ as HTML, in docs/_build/html.
docs: install
	$(BIN)/sphinx-build -W --keep-going -q -b html docs docs/_build/html

## Applies what `make lint` asks for: ruff's fixes and format, djhtml's indentation.
fmt: install
	$(BIN)/ruff check --fix --exit-zero .
	$(BIN)/ruff format .
	$(BIN)/djhtml $(TEMPLATES)

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles artifacts node_modules .cache
