"""Edge benchmark: the site served through Varnish, against gunicorn directly and a static file, in one run.

Run `make bench-edge` (it installs Debian's varnish and wrk when missing). One run, under the production settings:

- gunicorn (WEB_CONCURRENCY workers, Redis at 127.0.0.1:6379 under a key prefix of its own when it runs, else
  each process's memory) on a fresh SQLite database with content/ loaded, and varnishd in front of it with the VCL
  `manage.py varnishvcl` prints (`-p http_gzip_support=off`, 256 MB of memory);
- wrk (BENCH_CONNECTIONS connections, BENCH_THREADS threads) in alternating slices of 5 s (BENCH_SLICES rounds),
  so that every target sees the same machine: the three-language compare page through Varnish and direct to
  gunicorn (its page cache warm), the same with a made-up parameter that is new on every request (`&x=<n>`: what
  a reader's tracking parameter, or an attacker, adds), and a static file as large as that page through
  whitenoise, direct and through Varnish;
- then a mixed workload through Varnish for BENCH_DURATION seconds: readers with an analytics cookie, half of them
  with an interface language cookie, a third with a remembered compare choice, over outline, sections, compare
  and share pages, penalties, glossary, finder, changes, feed, lists, API, sitemap, 50 searches in three
  languages (bench/search_mix.py); its requests/s and the hit
  ratio varnishstat counts.

It prints requests/s, p50 and p99, errors and ratios: each target against the static file served by gunicorn, and
through Varnish against direct. It exits non-zero on any error, if the compare page through Varnish serves
fewer requests/s than directly, or if a made-up parameter halves what Varnish serves.
"""

import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from varnish import Gunicorn, Varnish, free_port, manage, reachable, request, why_varnish_cannot_run  # noqa: E402

CONNECTIONS = int(os.environ.get("BENCH_CONNECTIONS", "64"))
THREADS = int(os.environ.get("BENCH_THREADS", "2"))
SLICES = int(os.environ.get("BENCH_SLICES", "4"))
DURATION = int(os.environ.get("BENCH_DURATION", "20"))
SLICE_SECONDS = 5
HEADERS = {"Accept-Encoding": "br, gzip", "X-Forwarded-Proto": "https"}
COMPARE = "/en/ipg/2.3/?langs=en,zh-hans,ja"
STATIC_COPY = "bench/compare-page.html"

MIXED_LUA = """
-- A reader per request, with the cookies readers carry, over the public pages.
local paths = {%(paths)s}
local cookies = {%(cookies)s}
local n = 0
request = function()
  n = n + 1
  local path = paths[math.random(#paths)]
  local cookie = cookies[(n %% #cookies) + 1]
  return wrk.format("GET", path, {["Cookie"] = cookie, ["Accept-Encoding"] = "br, gzip",
                                  ["X-Forwarded-Proto"] = "https"})
end
"""


# The reviewer's attack (issue 32): the compare page with a parameter nobody else ever sends, a new one each time.
MADE_UP_LUA = """
local n = 0
request = function()
  n = n + 1
  return wrk.format("GET", "%(path)s&x=" .. n .. "-" .. math.random(1000000000),
                    {["Accept-Encoding"] = "br, gzip", ["X-Forwarded-Proto"] = "https"})
end
"""


def environment(workdir, port):
    env = {
        "PATH": os.environ["PATH"],
        "HOME": os.environ.get("HOME", "/"),
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DATABASE_URL": os.environ.get("BENCH_DATABASE_URL", f"sqlite:///{workdir}/bench.sqlite3"),
        "STATIC_ROOT": str(workdir / "static"),
        "PREVIEW_IMAGE_DIR": str(workdir / "previews"),
    }
    if reachable(6379):
        env["CACHE_URL"] = f"redis://127.0.0.1:6379/0?key_prefix=bench-edge-{os.getpid()}"
    for name in ("WEB_CONCURRENCY", "GUNICORN_THREADS"):
        if name in os.environ:
            env[name] = os.environ[name]
    return env


def forget_cache(env):
    if "CACHE_URL" in env:
        import redis

        client = redis.Redis.from_url(env["CACHE_URL"].split("?")[0])
        for key in client.scan_iter(f"bench-edge-{os.getpid()}:*"):
            client.delete(key)


def wrk(port, path, seconds, script=None):
    command = ["wrk", f"-t{THREADS}", f"-c{CONNECTIONS}", f"-d{seconds}s", "--latency", "--timeout", "10s"]
    if script:
        command += ["-s", script]
    else:
        for name, value in HEADERS.items():
            command += ["-H", f"{name}: {value}"]
    output = subprocess.run(
        command + [f"http://127.0.0.1:{port}{path}"], capture_output=True, text=True, check=True
    ).stdout
    errors = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", output))
    errors += int((re.search(r"Non-2xx or 3xx responses: (\d+)", output) or [0, 0])[1])
    return {
        "requests": int(re.search(r"(\d+) requests in", output).group(1)),
        "p50": re.search(r"\s50%\s+(\S+)", output).group(1),
        "p99": re.search(r"\s99%\s+(\S+)", output).group(1),
        "errors": errors,
    }


def fetch(port, path):
    # The Host wrk sends: a page is kept per host, by Varnish and by the page cache.
    response = request(port, "GET", path, {"Host": f"127.0.0.1:{port}", **HEADERS})
    return response.status, response


def mixed_script(workdir, gunicorn_port):
    import json

    plain = {"Host": f"127.0.0.1:{gunicorn_port}", "X-Forwarded-Proto": "https", "Accept-Encoding": "identity"}
    outline = json.loads(request(gunicorn_port, "GET", "/api/ipg/", plain).body)
    sections = [s["number"] for c in outline.get("chapters", []) for s in c["sections"]]
    paths = []
    for code in ("en", "zh-hans", "ja"):
        paths += [f"/{code}/ipg/{n}/" for n in sections]
        paths += [
            f"/{code}/ipg/{n}/?langs={c}"
            for n in ("2.1", "2.3", "2.4")
            for c in ("en,ja", "zh-hans,en", "en,zh-hans,ja")
        ]
        paths += [f"/{code}/ipg/2.3/{key}/" for key in ("definition-1", "example-a", "example-c", "upgrade-1")]
        paths += [
            f"/{code}/",
            f"/{code}/penalties/",
            f"/{code}/glossary/",
            f"/{code}/finder/",
            f"/{code}/changes/",
            f"/{code}/changes/feed/",
            f"/{code}/list/?p=2.3:example-c&p=2.4:definition-1&langs=en,ja",
        ]
    paths += ["/api/ipg/", "/api/ipg/2.3/", "/sitemap.xml", "/sw.js", "/offline/pages.json?lang=en&langs="]
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from search_mix import urls

    paths += urls()  # 50 searches in three languages
    cookies = []
    for n in range(30):
        cookie = f"_ga=GA1.2.{secrets.randbelow(10**9)}.{n}"
        if n % 2:
            cookie += "; django_language=" + ("en", "zh-hans", "ja")[n % 3]
        if n % 3 == 0:
            cookie += '; ipg_langs="en\\054ja"'
        cookies.append(cookie)
    script = workdir / "mixed.lua"
    script.write_text(
        MIXED_LUA
        % {
            "paths": ", ".join(f'"{p}"' for p in paths),
            "cookies": ", ".join("'" + c.replace("\\", "\\\\") + "'" for c in cookies),
        }
    )
    return script, paths


def main():
    missing = why_varnish_cannot_run()
    if missing:
        sys.exit(missing + ": `make bench-edge` installs it.")
    if not shutil.which("wrk"):
        sys.exit("wrk is not installed: `make bench-edge` installs it (apt-get install wrk).")
    workdir = Path(tempfile.mkdtemp(prefix="ipg-edge-bench-"))
    gunicorn_port = free_port()
    env = environment(workdir, gunicorn_port)
    print(f"Preparing in {workdir}: migrate, loadcontent, collectstatic …", flush=True)
    manage(env, "migrate", "--noinput")
    manage(env, "loadcontent")
    manage(env, "collectstatic", "--noinput")

    gunicorn = Gunicorn(env, workers=int(env.get("WEB_CONCURRENCY", os.cpu_count() + 1)), port=gunicorn_port)
    varnish = None
    try:
        status, page = fetch(gunicorn.port, COMPARE)
        assert status == 200, f"{COMPARE}: HTTP {status}"
        import brotli

        copy = workdir / "static" / STATIC_COPY
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_bytes(brotli.decompress(page.body))
        from whitenoise.compress import Compressor

        for _ in Compressor(quiet=True).compress(str(copy)):
            pass
        gunicorn.stop()  # again, so that whitenoise sees the new file
        gunicorn = Gunicorn(env, workers=int(env.get("WEB_CONCURRENCY", os.cpu_count() + 1)), port=gunicorn_port)
        varnish = Varnish(env, f"127.0.0.1:{gunicorn.port}", workdir / "varnish", storage="malloc,256m")
        static = f"/static/{STATIC_COPY}"
        made_up = workdir / "made-up.lua"
        made_up.write_text(MADE_UP_LUA % {"path": COMPARE})
        targets = {
            "compare 2.3, through Varnish": (varnish.port, COMPARE, None),
            "compare 2.3, direct to gunicorn": (gunicorn.port, COMPARE, None),
            "compare 2.3 &x=<new>, Varnish": (varnish.port, COMPARE, str(made_up)),
            "compare 2.3 &x=<new>, gunicorn": (gunicorn.port, COMPARE, str(made_up)),
            "static file, through Varnish": (varnish.port, static, None),
            "static file, direct to gunicorn": (gunicorn.port, static, None),
        }
        for name, (port, path, _script) in targets.items():
            for _ in range(2):  # warm: the page cache, Varnish
                status, response = fetch(port, path)
                assert status == 200, f"{name}: HTTP {status}"
            print(f"{name}: {response.getheader('X-Edge') or response.getheader('X-Cache') or '-'}", flush=True)
        print(f"{SLICES} rounds of {SLICE_SECONDS} s per target, alternating, {CONNECTIONS} connections …", flush=True)
        results = {name: {"requests": 0, "errors": 0, "p50": [], "p99": []} for name in targets}
        for _ in range(SLICES):
            for name, (port, path, script) in targets.items():
                run = wrk(port, path, SLICE_SECONDS, script=script)
                results[name]["requests"] += run["requests"]
                results[name]["errors"] += run["errors"]
                results[name]["p50"].append(run["p50"])
                results[name]["p99"].append(run["p99"])

        script, paths = mixed_script(workdir, gunicorn.port)
        for path in paths:  # warm-up: each page once
            fetch(varnish.port, path)
        before = varnish.counters()
        print(f"Mixed workload through Varnish: {len(paths)} pages, {DURATION} s …", flush=True)
        mixed = wrk(varnish.port, "/", DURATION, script=str(script))
        after = varnish.counters()
    finally:
        if varnish:
            varnish.stop()
        gunicorn.stop()
        shutil.rmtree(workdir, ignore_errors=True)
        forget_cache(env)

    seconds = SLICES * SLICE_SECONDS
    baseline = results["static file, direct to gunicorn"]["requests"] / seconds
    print()
    print(
        f"gunicorn ({env.get('WEB_CONCURRENCY', 'one per core + 1')} workers, "
        f"cache {'Redis' if 'CACHE_URL' in env else 'local memory'}) behind varnishd 7, wrk {CONNECTIONS} connections "
        f"{THREADS} threads, {SLICES} × {SLICE_SECONDS} s per target, alternating"
    )
    print(f"{'target':<34} {'req/s':>8} {'p50 (slices)':>30} {'errors':>6} {'÷ static direct':>16}")
    for name, r in results.items():
        rps = r["requests"] / seconds
        ratio = f"{rps / baseline:>15.1f}x" if baseline else f"{'-':>16}"  # a slice starved by the one before it
        print(f"{name:<34} {rps:>8.0f} {' '.join(r['p50']):>30} {r['errors']:>6} {ratio}")
    through, direct = (results[f"compare 2.3, {way}"]["requests"] for way in ("through Varnish", "direct to gunicorn"))
    print(f"\nCompare page through Varnish ÷ direct to gunicorn: {through / direct:.1f}x")
    made_up = {way: results[f"compare 2.3 &x=<new>, {way}"]["requests"] for way in ("Varnish", "gunicorn")}
    print(
        f"With a made-up parameter, a new one each request ÷ the plain page: through Varnish "
        f"{made_up['Varnish'] / through:.2f}x, direct to gunicorn {made_up['gunicorn'] / direct:.2f}x"
    )
    counted = {name: after[name] - before[name] for name in ("cache_hit", "cache_miss", "s_pass", "s_synth")}
    looked_up = counted["cache_hit"] + counted["cache_miss"] + counted["s_pass"]
    print(
        f"Mixed workload through Varnish ({len(paths)} pages, readers' cookies): {mixed['requests'] / DURATION:.0f} "
        f"requests/s, p50 {mixed['p50']}, p99 {mixed['p99']}, {mixed['errors']} errors; varnishstat {counted}: "
        f"hit ratio {counted['cache_hit'] / looked_up:.1%} "
        f"({counted['s_synth']} remembered-choice redirects answered by Varnish itself)"
    )

    failures = [f"{name}: {r['errors']} errors" for name, r in results.items() if r["errors"]]
    if mixed["errors"]:
        failures.append(f"mixed workload: {mixed['errors']} errors")
    if through < direct:
        failures.append("the compare page is slower through Varnish than direct")
    if made_up["Varnish"] < through / 2:
        failures.append("a made-up parameter gets past Varnish: half as many requests/s as the plain page, or fewer")
    if failures:
        sys.exit("FAILED: " + "; ".join(failures))
    print("OK: no errors, and Varnish serves the compare page faster than gunicorn does.")


if __name__ == "__main__":
    main()
