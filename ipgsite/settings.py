"""Settings for the IPG reference site.

Everything that differs between a laptop and production comes from the
environment: DEBUG, SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL, CACHE_URL.
"""

import hashlib
from datetime import timedelta
from pathlib import Path

import environ
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from ipgsite import proxies

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

DEBUG = env.bool("DEBUG", default=False)
# DEBUG off is a deployment (README: "Deploy on PostgreSQL"): HTTPS, hashed static files, and a SECRET_KEY of its
# own, or no start at all. DEBUG=1 (`make serve`) and the tests (ipgsite/test_settings.py) are development:
# plain HTTP, static files served from where they are, and a key that is public.
DEPLOYED = not DEBUG
DEVELOPMENT_KEY = "insecure-development-key-never-use-in-production"
SECRET_KEY = env.str("SECRET_KEY", default="") or (DEVELOPMENT_KEY if not DEPLOYED else "")
# What Django's check --deploy (security.W009) calls a weak key is refused here, not only warned about.
MIN_SECRET_KEY_LENGTH = 50
MIN_SECRET_KEY_CHARACTERS = 5
INSECURE_SECRET_KEY_PREFIX = "django-insecure-"


def _weak_secret_key(key):
    """Why a deployment cannot sign with `key`, or None."""
    if key in ("", DEVELOPMENT_KEY):
        return (
            "SECRET_KEY is not set (or is the public development key). DEBUG is off, so this is a deployment, and "
            "it needs a SECRET_KEY of its own"
        )
    if len(key) < MIN_SECRET_KEY_LENGTH:
        return f"SECRET_KEY has {len(key)} characters: a deployment needs at least {MIN_SECRET_KEY_LENGTH} random ones"
    if len(set(key)) < MIN_SECRET_KEY_CHARACTERS:
        return (
            f"SECRET_KEY has {len(set(key))} different characters: a deployment needs a random key, with at least "
            f"{MIN_SECRET_KEY_CHARACTERS} different ones"
        )
    if key.startswith(INSECURE_SECRET_KEY_PREFIX):
        return (
            f"SECRET_KEY starts with {INSECURE_SECRET_KEY_PREFIX!r}, as the development key `startproject` writes "
            "does: a deployment needs a key of its own"
        )
    return None


if DEPLOYED and (_weak := _weak_secret_key(SECRET_KEY)):
    raise ImproperlyConfigured(
        f"{_weak}: python -c 'import secrets; print(secrets.token_urlsafe(50))'. For development, set DEBUG=1."
    )
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "testserver"])

INSTALLED_APPS = [
    "modeltranslation",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.sitemaps",
    "corsheaders",
    "ipgsite.login_attempts.LoginAttemptsConfig",  # django-axes, named in the interface language
    "ipgsite.ipg",
    "ipgsite.editing",
    "ipgsite.caching",
    "ipgsite.offline",
    "ipgsite.workspace",
    "ipgsite.contentfiles",
    "ipgsite.importing",
    "ipgsite.api",
    "ipgsite.crosslinks",
    "ipgsite.search",
    "ipgsite.releases",
    "ipgsite.study",
    "ipgsite.terms",
    "ipgsite.finder",
    "ipgsite.exchange",
    "ipgsite.embedding",
    "ipgsite.assistants",
]

# What a write of the IPG's text sets off, in this order, once per batch of writes and in its transaction
# (ipgsite.editing.after_write): each app that keeps something derived from the text adds its step here.
AFTER_WRITE = [
    "ipgsite.editing.statuses.follow",  # each translation's status: missing, outdated, translated, reviewed
    "ipgsite.crosslinks.build.follow",  # the cross-links found in the text, which "Mentioned in" lists read
    "ipgsite.terms.occurrences.follow",  # the terms found in the text, which term marks and the glossary read
    "ipgsite.terms.citing.follow",  # where terms were found, in paragraphs a rename or renumbering moved
    "ipgsite.finder.citing.follow",  # the finder's citations of paragraphs a rename or renumbering moved
    "ipgsite.search.index.follow",  # the search index
    "ipgsite.caching.versions.follow",  # the content version: cached pages and ETags are stale from now on
]

# What other apps add to the reading pages, in order (ipgsite.ipg.layers): to each text, to a section page's
# context, after a section's texts, and the earlier versions a page shows. The core names no feature app.
READING_LAYERS = {
    "text": {
        "links": "ipgsite.crosslinks.rendering.link_mentions",
        "terms": "ipgsite.terms.marking.mark_terms",
        "lags": "ipgsite.releases.lags.mark_lag",
    },
    "section": ["ipgsite.releases.reading.section_context"],
    "after_section": [
        "ipgsite.study.layers.paragraph_menu",
        "ipgsite.terms.marking.term_cards",
        "ipgsite.study.layers.reading_list_bar",
        "ipgsite.crosslinks.layers.mentioned_in",
        "ipgsite.finder.layers.steps_to",
    ],
    "version": "ipgsite.releases.reading.as_released",  # a section as a release froze it (?release=)
}

MIDDLEWARE = [
    "ipgsite.caching.middleware.LongUrlMiddleware",
    # A page the page cache served, asked for again in the same words: its answer as it left, before the rest.
    "ipgsite.caching.fastlane.FastLaneMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "ipgsite.compression.GZipExceptPictures",
    # Outside the session and locale middleware: what shared caches may keep, seen as the answer leaves.
    "ipgsite.caching.edge.EdgeMiddleware",
    # Above the page cache, so that cached answers get the CORS headers too (CORS_URLS_REGEX below).
    "corsheaders.middleware.CorsMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # `Accept: text/markdown` on a section's or paragraph's page: its Markdown version, kept apart by the page cache.
    "ipgsite.assistants.negotiation.MarkdownNegotiation",
    # After the language is known, before the rest: a cached page skips everything below, and is
    # kept with the headers they set (its Content-Security-Policy, X-Frame-Options).
    "ipgsite.caching.middleware.PageCacheMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "ipgsite.workspace.middleware.InterfaceLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "ipgsite.editing.middleware.BusyWritesMiddleware",  # a save that waited too long for another: 503, not 500
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "ipgsite.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "ipgsite.ipg.context_processors.site",
                "ipgsite.releases.context_processors.printing",
            ],
        },
    },
]

WSGI_APPLICATION = "ipgsite.wsgi.application"

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # CJK search needs a UTF-8 ctype; template0 lets the test database choose it.
    DATABASES["default"].setdefault("TEST", {}).update({"TEMPLATE": "template0", "CHARSET": "UTF8"})
    # A writer waits at most 20 s for the write lock (ipgsite.editing.writing.WAIT_FOR_WRITES), then is told so.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("options", "-c lock_timeout=20s")
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # One writer at a time (ipgsite.editing.writing): a transaction takes the write lock as it begins, so that two
    # saves at once wait for each other (up to `timeout` seconds) instead of one failing as "database is locked".
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("transaction_mode", "IMMEDIATE")
    DATABASES["default"]["OPTIONS"].setdefault("timeout", 20)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# A translated file (XLIFF, TMX) uploaded through the site is read and written within one request: at most this many
# bytes, units and texts changed (reading and checking a unit costs little; writing a text and what follows from it,
# some 50-100 ms here). A bigger one is refused with a message naming the command that imports it
# (`manage.py importxliff|importtmx`, which reads up to 50 MB in any number of units).
EXCHANGE_WEB_LIMITS = {"bytes": 5_000_000, "units": 5_000, "changes": 200}

# Local memory by default; several processes share Redis (django-redis): redis://127.0.0.1:6379/0?key_prefix=ipg
CACHES = {"default": env.cache("CACHE_URL", default="locmemcache://")}
if DEBUG and "CACHE_URL" not in env:
    # Development: files, one folder per database, so that `make serve` and a `loadcontent`, `publishrelease` or
    # import run in another terminal share the content version and the pages: the next request sees what they did.
    _database = "|".join(str(DATABASES["default"].get(name, "")) for name in ("ENGINE", "HOST", "PORT", "NAME"))
    CACHES["default"] = {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": str(BASE_DIR / ".cache" / f"pages-{hashlib.sha256(_database.encode()).hexdigest()[:12]}"),
        "OPTIONS": {"MAX_ENTRIES": 2000},
    }

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("zh-hans", "简体中文"),
    ("ja", "日本語"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = "UTC"

# A missing translation is shown as missing, never silently filled with English.
MODELTRANSLATION_DEFAULT_LANGUAGE = "en"
MODELTRANSLATION_FALLBACK_LANGUAGES = ()
# The admin's language tabs need jQuery UI: served from static/, never from a CDN (offline, CSP).
JQUERY_UI_URL = "workspace/vendor/jquery-ui/jquery-ui.min.js"

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env("STATIC_ROOT", default=str(BASE_DIR / "staticfiles")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Deployed: `collectstatic` minifies the site's own CSS and JS, then writes hashed names and gzip/brotli copies
    # that whitenoise serves for a year (ipgsite/staticfiles.py).
    "staticfiles": {
        "BACKEND": "ipgsite.staticfiles.MinifiedManifestStaticFilesStorage"
        if DEPLOYED
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
# Not deployed: whitenoise serves static files from where they are, looked up afresh on each request.
WHITENOISE_USE_FINDERS = WHITENOISE_AUTOREFRESH = not DEPLOYED

CONTENT_DIR = Path(env("CONTENT_DIR", default=str(BASE_DIR / "content")))
# The source texts, as the repository keeps them: checkcontent checks that each place content/terms.toml cites holds
# its name.
SEEDS_DIR = Path(env("SEEDS_DIR", default=str(BASE_DIR / "tests" / "fixtures" / "seeds")))
# Link preview pictures of shared paragraphs (ipgsite/study), drawn once per text; PREVIEW_FONT is a font file
# with Chinese and Japanese (default: Noto Sans CJK, found with fc-match).
PREVIEW_IMAGE_DIR = Path(env("PREVIEW_IMAGE_DIR", default=str(BASE_DIR / "previews")))
PREVIEW_FONT = env("PREVIEW_FONT", default="")

# --- Serving the public: HTTPS, security headers, page cache, admin login rate limit ---

# A deployment sits behind a TLS proxy that sets X-Forwarded-Proto; gunicorn trusts that header from
# FORWARDED_ALLOW_IPS (gunicorn.conf.py), so Django sees those requests as secure. HTTPS=off for plain HTTP.
HTTPS = env.bool("HTTPS", default=DEPLOYED)
SECURE_SSL_REDIRECT = HTTPS
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
LANGUAGE_COOKIE_SECURE = HTTPS  # the interface language; the compare choice (ipg_langs) follows HTTPS too
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
SECURE_HSTS_SECONDS = env.int("HSTS_SECONDS", default=365 * 24 * 3600) if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = env.bool("HSTS_PRELOAD", default=True)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Scripts and styles come from static files only: no inline <script>, no style="" attributes.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "manifest-src": [SELF],
        "worker-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "upgrade-insecure-requests": HTTPS,
    },
}

# Public pages kept in the cache (ipgsite/caching), by URL name, with the query parameters each reads, in the order
# the site's links write them: the one list of what a page type reads, which the page cache and the VCL both follow.
# Any other parameter (a made-up one, fbclid, utm_source) is dropped before the page is looked up or rendered, here
# and at the edge. PAGE_CACHE_REPEATED names the parameters that repeat; PAGE_CACHE_PASSED those with which a page
# is answered but never kept; PAGE_CACHE_NORMALIZED the function that spells a query as the page reads it (a
# search's as the search cleans it); PAGE_CACHE_PER_QUERY those that make one page per query (search): kept apart,
# in each process's memory, and in the shared cache once asked for again. PAGE_CACHE_COOKIES are the cookies a
# public page reads or sets for everyone alike, each with the function that reads it as the pages do (made-up values
# then share one cache entry).
PAGE_CACHE_VIEWS = {
    "ipg:outline": [],
    "ipg:penalties": ["penalty"],
    "ipg:section": ["langs", "release"],
    "study:paragraph": ["langs", "release"],
    "terms:glossary": ["kind"],
    "api:outline": [],
    "api:section": ["release"],
    "api:paragraph": ["release"],
    "api:paragraph-history": [],
    "api:changes": ["from", "to"],
    "api:linker": [],
    "api:openapi": [],
    "embedding:linker": [],
    # One page per query (PAGE_CACHE_PER_QUERY).
    "search:search": ["q", "language", "kind", "page"],
    "django.contrib.sitemaps.views.sitemap": ["p"],
    "offline:service-worker": [],
    "offline:manifest": ["lang"],
    "offline:pages": ["lang", "langs"],
    "finder:start": ["langs"],
    "finder:step": ["langs"],
    "releases:changes": ["from", "to", "langs"],
    "releases:release": ["langs"],
    "history:paragraph": ["langs"],
    "markdown:section": ["langs", "release"],
    "markdown:paragraph": ["langs", "release"],
    "assistants:llms-txt": [],
    # Reading lists: `p` repeats, once per paragraph, in the list's order (PAGE_CACHE_REPEATED).
    "study:list": ["p", "langs"],
    "releases:feed": [],
    "api-releases": [],
}
PAGE_CACHE_REPEATED = {"study:list": ["p"], "search:search": ["language", "kind"]}
PAGE_CACHE_PASSED = {}
PAGE_CACHE_NORMALIZED = {"search:search": "ipgsite.search.views.normalized_query"}
# Anyone can ask for any number of distinct queries: such pages are kept apart, so that they push no other page out.
PAGE_CACHE_PER_QUERY = {"search:search": ["q", "language", "kind", "page"]}
# The pages of a published release, kept until a release is published, loaded, edited or deleted (not on content
# edits): the view's name, and the query parameter that makes its page a release's (None: every page of the view).
PAGE_CACHE_RELEASE_PAGES = {
    "releases:release": None,
    "releases:changes": "from",
    "markdown:section": "release",
    "markdown:paragraph": "release",
    "api:changes": None,
    "ipg:section": "release",
    "api:section": "release",
    "api:paragraph": "release",
    "study:paragraph": "release",
}
PAGE_CACHE_COOKIES = {"ipg_langs": "ipgsite.ipg.compare.parse"}
PAGE_CACHE_SECONDS = env.int("PAGE_CACHE_SECONDS", default=24 * 3600)
PAGE_CACHE_IN_MEMORY = env.int("PAGE_CACHE_IN_MEMORY", default=256)  # pages each process also holds itself
PAGE_CACHE_QUERIES_IN_MEMORY = env.int("PAGE_CACHE_QUERIES_IN_MEMORY", default=512)  # and pages of a query
# Answers the fast lane keeps in each process (ipgsite/caching/fastlane.py); 0 turns it off.
PAGE_CACHE_FAST_LANE = env.int("PAGE_CACHE_FAST_LANE", default=256)
PAGE_CACHE_QUERY_SECONDS = env.int("PAGE_CACHE_QUERY_SECONDS", default=3600)  # in the shared cache

# Served from the edge (ipgsite/caching/edge.py, README "Served from the edge"): the pages above, as kept for
# readers who are not signed in, may be kept by shared caches in front of the site (Varnish, a CDN) for
# EDGE_MAX_AGE seconds and served stale for EDGE_STALE_WHILE_REVALIDATE more while they ask again: a change reaches
# every reader through them within EDGE_MAX_AGE + EDGE_STALE_WHILE_REVALIDATE seconds, and at once when
# EDGE_PURGE_URLS names them (purged after each change commits). While the site answers with errors they serve what
# they hold for up to EDGE_STALE_IF_ERROR seconds.
EDGE_MAX_AGE = env.int("EDGE_MAX_AGE", default=60)
EDGE_STALE_WHILE_REVALIDATE = env.int("EDGE_STALE_WHILE_REVALIDATE", default=30)
EDGE_STALE_IF_ERROR = env.int("EDGE_STALE_IF_ERROR", default=24 * 3600)
# The caches to purge, e.g. http://10.0.0.5:6081/ (each gets `BAN` with the Surrogate-Key of what changed), within
# EDGE_PURGE_TIMEOUT seconds each, and once more EDGE_PURGE_AGAIN_AFTER seconds later.
EDGE_PURGE_URLS = env.list("EDGE_PURGE_URLS", default=[])
EDGE_PURGE_TIMEOUT = env.float("EDGE_PURGE_TIMEOUT", default=2.0)
EDGE_PURGE_AGAIN_AFTER = env.float("EDGE_PURGE_AGAIN_AFTER", default=2.0)
# Who may purge (`manage.py varnishvcl`, and the purges this site sends): with EDGE_PURGE_TOKEN set, a purge must
# carry it (X-Purge-Token; 32 or more characters: python -c 'import secrets; print(secrets.token_urlsafe(32))'),
# and come from EDGE_PURGERS when that lists any address. Without a token, only from EDGE_PURGERS, and never from a
# TLS proxy's address: what reaches the cache from there may be any reader's. EDGE_TLS_PROXIES are the TLS proxies
# in front of the cache, whose X-Forwarded-Proto and X-Forwarded-For it believes. Addresses or networks.
EDGE_PURGE_TOKEN = env.str("EDGE_PURGE_TOKEN", default="")
EDGE_PURGERS = env.list("EDGE_PURGERS", default=[])
EDGE_TLS_PROXIES = env.list("EDGE_TLS_PROXIES", default=["127.0.0.1", "::1"])
# Longer addresses are answered 414, by the site and by the VCL (gunicorn refuses a request line over 4094 bytes).
MAX_URL_LENGTH = 4000
# Public pages outside the language prefixes whose answer is the same in every interface language (None), or once
# the parameter named here gives the language, as the site's own links do: they need not vary on Accept-Language.
EDGE_ANY_LANGUAGE = {
    "api:outline": None,
    "api:section": None,
    "api:paragraph": None,
    "api:paragraph-history": None,
    "api:changes": None,
    "assistants:llms-txt": None,
    "api:linker": None,
    "api:openapi": None,
    "embedding:linker": None,
    "api-releases": None,
    "django.contrib.sitemaps.views.sitemap": None,
    "offline:service-worker": None,
    "offline:manifest": "lang",
    "offline:pages": "lang",
}
# The cookie that decides what a public page answers: the remembered compare choice, which takes a reader from
# these pages, when their URL chooses no languages (`langs`), to the same URL with the remembered `langs`. The VCL
# makes that redirect itself for a choice spelled as the site writes it, and sends any other spelling to Django.
EDGE_REMEMBERED_CHOICE = {"cookie": "ipg_langs", "parameter": "langs", "views": ["ipg:section", "study:list"]}

# Other sites' pages read the public, read-only JSON API, oEmbed and the linker (ipgsite/api, ipgsite/embedding)
# from any origin, never with credentials: no cookie is read there, and `Access-Control-Allow-Credentials` is never
# sent. Nothing else (the admin, the translators' pages) answers another origin.
# The MCP server for AI assistants (ipgsite/assistants/mcp.py, at /mcp): requests a minute from one address, counted
# in the cache (shared by every process with CACHE_URL), and the version it names itself by.
MCP_RATE_LIMIT = env.int("MCP_RATE_LIMIT", default=120)
MCP_SERVER_VERSION = "1"

CORS_URLS_REGEX = r"^/(?:api/|oembed/|linker\.js$|mcp$|llms\.txt$)"
CORS_ALLOW_ALL_ORIGINS = True
CORS_ALLOW_CREDENTIALS = False
CORS_ALLOW_METHODS = ("GET", "HEAD", "OPTIONS")

# Admin logins: after LOGIN_FAILURE_LIMIT wrong passwords for one username from one address, that pair
# waits LOGIN_COOLOFF_MINUTES (django-axes; attempts are kept in the database, shared by every process).
AUTHENTICATION_BACKENDS = [
    "ipgsite.logins.LoginAttemptsBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = timedelta(minutes=env.int("LOGIN_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "ipgsite.logins.client_ip"
AXES_LOCKOUT_TEMPLATE = "logins/locked_out.html"
# The proxies whose X-Forwarded-For and X-Forwarded-Proto are believed: addresses and networks, read by
# ipgsite/proxies.py for gunicorn and for the login limit alike (README: "Deploy on PostgreSQL").
try:
    FORWARDED_ALLOW_IPS = proxies.trusted_proxies(env.str(proxies.VARIABLE, default=proxies.DEFAULT))
except proxies.Ambiguous as error:
    raise ImproperlyConfigured(str(error)) from None

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}
