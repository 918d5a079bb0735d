{% autoescape off %}vcl 4.1;
# The IPG reference site behind Varnish 7, made by `{{ command }}` from the site's settings and URLs: make it again
# after changing them. Run varnishd with `-p http_gzip_support=off`, so that readers get Django's own brotli or gzip
# (with it on, Varnish stores and sends gzip only, which works too). README: "Served from the edge".
#
# - Public pages are looked up with every cookie dropped: none of them depends on one, and with only the query
#   parameters each reads, in the order the site writes them (PAGE_CACHE_VIEWS): a made-up parameter, fbclid or
#   utm_source never reaches the site, nor splits the cache. Shared caches may keep what the site marks public
#   (s-maxage, stale-while-revalidate, stale-if-error in Cache-Control), nothing else.
# - An address longer than {{ max_url_length }} characters (MAX_URL_LENGTH) is answered 414, as the site answers it.
# - A request carrying the session, CSRF or messages cookie ({{ personal_names }}), any other method than GET or
#   HEAD, and the admin and translators' pages go to the site as they are, never stored.
# - The remembered compare choice ({{ remembered_cookie }}) decides one thing: a section page or reading list whose
#   URL names no languages redirects to the same URL with them. Varnish makes that redirect itself for a choice
#   spelled as the site writes it, and sends any other spelling to the site.
# - Other paths outside the language prefixes (/, /ipg/2.3/: a redirect by the interface language cookie or
#   Accept-Language; /lang/…, which sets it) go to the site with their cookies.
# - BAN with a Surrogate-Key drops the pages of that key: {% if purge_token %}with the token of EDGE_PURGE_TOKEN in
#   {{ purge_token_header }}{% if purgers %}, from the addresses in EDGE_PURGERS{% endif %}{% elif purgers %}from the addresses in EDGE_PURGERS that are not a TLS
#   proxy's (what a proxy passes on may be any reader's){% else %}from nowhere (neither EDGE_PURGE_TOKEN nor
#   EDGE_PURGERS is set){% endif %}. This file holds the token: keep it readable by root and Varnish only.

import std;
import directors;
{% for backend in backends %}
backend site{{ forloop.counter }} {
    .host = "{{ backend.host }}";
    .port = "{{ backend.port }}";
    .connect_timeout = 2s;
    .first_byte_timeout = 35s;  # gunicorn gives up on a request after 30 s
    .probe = {
        .request = "GET {{ probe_path }} HTTP/1.1"
            "Host: {{ probe_host }}"
            "X-Forwarded-Proto: https"
            "Connection: close";
        .expected_response = 302;
        .interval = 5s;
        .timeout = 2s;
        .window = 5;
        .threshold = 3;
        .initial = 3;  # healthy from the start, until the probes say otherwise
    }
}
{% endfor %}
{% if purgers %}acl purgers {
    {% for line in purgers %}{{ line }}{% if not forloop.last %}
    {% endif %}{% endfor %}
}

{% endif %}acl tls_proxies {
    {% for line in tls_proxies %}{{ line }}{% if not forloop.last %}
    {% endif %}{% endfor %}
}

sub vcl_init {
    new site = directors.round_robin();{% for backend in backends %}
    site.add_backend(site{{ forloop.counter }});{% endfor %}
}

sub vcl_recv {
    unset req.http.X-Edge-Page;  # Varnish's own notes: never a reader's
    unset req.http.X-Edge-Query;
    if (req.url ~ {"{{ too_long }}"}) {
        return (synth(414, "URI Too Long"));  # before any other regex reads it
    }
    if (req.restarts == 0) {
        unset req.http.X-Edge-Stale;
        unset req.http.X-Edge-Lookup;
        unset req.http.X-Edge-Location;
        if (client.ip ~ tls_proxies) {
            # Varnish appended the proxy's own address: the client is the entry the proxy appended before it.
            if (req.http.X-Forwarded-For ~ ",") {
                set req.http.X-Forwarded-For = regsub(req.http.X-Forwarded-For, {"\s*,[^,]*$"}, "");
            } else {
                unset req.http.X-Forwarded-For;
            }
        } else {
            unset req.http.X-Forwarded-Proto;  # only a TLS proxy says that a request came over HTTPS
        }
    }
    set req.backend_hint = site.backend();
    # Stale pages are served while they are asked for again, up to stale-while-revalidate; when the site fails,
    # up to stale-if-error (the restart in vcl_deliver).
    set req.grace = {{ stale_while_revalidate }}s;
    if (req.http.X-Edge-Stale) {
        set req.grace = {{ stale_if_error }}s;
    }

    if (req.method == "BAN") {
{% if purge_token %}        if (req.http.{{ purge_token_header }} != "{{ purge_token }}"{% if purgers %} || client.ip !~ purgers{% endif %}) {
            return (synth(403, "Not allowed to purge"));
        }
{% elif purgers %}        if (client.ip !~ purgers || client.ip ~ tls_proxies) {
            return (synth(403, "Not allowed to purge"));  # what a TLS proxy passes on may be any reader's
        }
{% endif %}{% if purge_token or purgers %}        if (req.http.Surrogate-Key !~ {"{{ surrogate_keys }}"}) {
            return (synth(400, "Surrogate-Key names no key of this site"));
        }
        # Unquoted: in ban(), quotes would be part of the regex.
        ban("obj.http.Surrogate-Key ~ ^(?:" + regsuball(req.http.Surrogate-Key, " ", "|") + ")$");
        return (synth(200, "Banned"));
{% else %}        return (synth(403, "Not allowed to purge"));  # nobody may: no EDGE_PURGE_TOKEN, no EDGE_PURGERS
{% endif %}    }
    unset req.http.{{ purge_token_header }};
    if (req.method != "GET" && req.method != "HEAD") {
        return (pass);
    }
    if (req.url ~ {"{{ admin }}"}) {
        return (pass);  # the admin and the translators' pages
    }
    if (req.http.Authorization || req.http.Cookie ~ {"{{ personal_cookies }}"}) {
        return (pass);  # someone signed in, or a form's CSRF token: their own pages
    }

    # The site compresses each page once, in brotli and gzip: one stored copy per encoding.
    if (req.http.Accept-Encoding ~ {"(^|,)\s*br\s*(;\s*q=(1|0?\.[0-9]*[1-9])[0-9]*)?\s*(,|$)"}) {
        set req.http.Accept-Encoding = "br";
    } elsif (req.http.Accept-Encoding ~ {"(^|,)\s*gzip\s*(;\s*q=(1|0?\.[0-9]*[1-9])[0-9]*)?\s*(,|$)"}) {
        set req.http.Accept-Encoding = "gzip";
    } else {
        unset req.http.Accept-Encoding;
    }
    # Section and paragraph pages answer their Markdown to Accept: text/markdown, and say Vary: Accept. Every other
    # Accept (a browser's, curl's */*) gets the HTML: one stored copy for all of them, whatever they send.
    if (req.http.Accept !~ "(?i)text/markdown") {
        unset req.http.Accept;
    }

    if (req.url ~ {"{{ static }}"}) {
        unset req.http.Cookie;
        set req.http.X-Edge-Lookup = "1";
        return (hash);
    }
    # A public page: only the query parameters it reads, in the order the site writes them, each with its values as
    # given (the site does the same: ipgsite/caching/queries.py). The query is read as "&a=1&b=2".
{% for group in page_groups %}    {% if not forloop.first %}} els{% endif %}if (req.url ~ {"{{ group.paths }}"}) {
{% if group.parameters %}        set req.http.X-Edge-Query = "&" + regsub(req.url, {"^[^?]*\??"}, "");
        set req.url = regsub(req.url, {"\?.*$"}, "") + regsub(""{% for filter in group.filters %}
            + regsuball(req.http.X-Edge-Query, {"{{ filter }}"}, ""){% endfor %}, "^&", "?");
        unset req.http.X-Edge-Query;
{% else %}        set req.url = regsub(req.url, {"\?.*$"}, "");
{% endif %}        set req.http.X-Edge-Page = "keep";
{% if group.passed %}        if (req.url ~ {"{{ group.passing }}"}) {
            set req.http.X-Edge-Page = "pass";  # one page per query: answered, never kept
        }
{% endif %}{% if group.needs %}        if (req.url !~ {"{{ group.needing }}"}) {
            set req.http.X-Edge-Page = "pass";  # in the reader's language, which the URL does not name
        }
{% endif %}{% if forloop.last %}    }
{% endif %}{% endfor %}
    if (req.url ~ {"{{ remembering_pages }}"} && req.url !~ {"[?&]{{ remembered_parameter }}="}
            && req.http.Cookie ~ {"(^|;\s*){{ remembered_cookie }}="}) {
        # The cookie as Django writes it: "en\054ja", quoted, its commas escaped.
        set req.http.X-Edge-Choice = regsuball(regsuball(
            regsub(req.http.Cookie, {"^(?:.*;\s*)?{{ remembered_cookie }}=([^;]*).*$"}, "\1"),
            {"^"|"$"}, ""), {"\\054"}, ",");
        if (req.http.X-Edge-Choice ~ {"{{ remembered_choices }}"} && req.url ~ {"^[^?]*(\?[A-Za-z0-9._:=&-]*)?$"}) {
            if (req.url ~ {"\?."}) {
                set req.http.X-Edge-Location = req.url + "&{{ remembered_parameter }}=" + req.http.X-Edge-Choice;
            } else {
                set req.http.X-Edge-Location = regsub(req.url, {"\?$"}, "")
                    + "?{{ remembered_parameter }}=" + req.http.X-Edge-Choice;
            }
            unset req.http.X-Edge-Choice;
            return (synth(302, "Found"));
        }
        unset req.http.X-Edge-Choice;
        return (pass);  # another spelling of a choice, or a made-up one: the site decides
    }
    if (req.http.X-Edge-Page == "keep") {
        unset req.http.Cookie;
        set req.http.X-Edge-Lookup = "1";
        return (hash);
    }
    return (pass);
}

sub vcl_hash {
    # Behind the TLS proxy a page names https:// addresses; a plain request is redirected there.
    hash_data(req.http.X-Forwarded-Proto);
}

sub vcl_hit {
    set req.http.X-Edge-State = "hit";
    if (obj.ttl <= 0s) {
        set req.http.X-Edge-State = "stale";
    }
}

sub vcl_miss {
    set req.http.X-Edge-State = "miss";
}

sub vcl_pass {
    set req.http.X-Edge-State = "pass";
}

sub vcl_backend_fetch {
    unset bereq.http.X-Edge-State;  # Varnish's own notes stay with Varnish
    unset bereq.http.X-Edge-Lookup;
    unset bereq.http.X-Edge-Stale;
    unset bereq.http.X-Edge-Page;
}

sub vcl_backend_response {
    if (bereq.uncacheable) {
        return (deliver);
    }
    if (beresp.status >= 500) {
        if (bereq.is_bgfetch) {
            return (abandon);  # keep serving the copy in hand
        }
        set beresp.ttl = 0s;
        set beresp.uncacheable = true;
        return (deliver);
    }
    if (beresp.http.Set-Cookie
            || beresp.http.Cache-Control !~ {"(?i)(^|,)\s*public\s*(,|$)"}
            || beresp.http.Cache-Control ~ {"(?i)(^|,)\s*(private|no-store|no-cache)\b"}
            || beresp.http.Vary ~ {"(?i)(^|,)\s*(cookie|\*)\s*(,|$)"}) {
        # Not everyone's: never stored. Hit-for-miss, so that the next request asks the site again.
        set beresp.ttl = 60s;
        set beresp.uncacheable = true;
        return (deliver);
    }
    # Varnish reads s-maxage (the TTL) and stale-while-revalidate (the grace) itself, not stale-if-error: how long
    # the copy may serve while the site fails.
    if (beresp.http.Cache-Control ~ {"stale-if-error=[0-9]+"}) {
        set beresp.grace = std.duration(
            regsub(beresp.http.Cache-Control, {"^.*stale-if-error=([0-9]+).*$"}, "\1s"), beresp.grace);
    }
    return (deliver);
}

sub vcl_backend_error {
    if (bereq.is_bgfetch) {
        return (abandon);
    }
}

sub vcl_deliver {
    unset resp.http.Surrogate-Key;  # for this cache: not for browsers, nor for a cache behind it
    unset resp.http.CDN-Cache-Control;  # for the CDNs that read it; Varnish reads Cache-Control
    set resp.http.X-Edge = req.http.X-Edge-State;
    if (req.http.X-Edge-Stale && req.http.X-Edge-State != "miss") {
        set resp.http.X-Edge = "stale-if-error";
    }
    if (resp.status >= 500 && req.http.X-Edge-Lookup && !req.http.X-Edge-Stale) {
        set req.http.X-Edge-Stale = "1";
        return (restart);  # the copy in hand, if there is one, stale as it may be
    }
}

sub vcl_synth {
    set resp.http.X-Edge = "synth";
    if (resp.status == 414) {
        set resp.http.Content-Type = "text/plain; charset=utf-8";
        set resp.http.Cache-Control = "no-store";
        synthetic("This address is too long: the site reads addresses of at most {{ max_url_length }} characters.");
        return (deliver);
    }
    if (req.method == "BAN") {
        set resp.http.Content-Type = "text/plain; charset=utf-8";
        synthetic(resp.reason);
        return (deliver);
    }
    if (resp.status == 302 && req.http.X-Edge-Location) {
        set resp.http.Location = req.http.X-Edge-Location;
        set resp.http.Cache-Control = "private, no-cache";
        set resp.http.Vary = "Cookie";
        set resp.http.Content-Type = "text/html; charset=utf-8";
        synthetic("");
        return (deliver);
    }
}
{% endautoescape %}
