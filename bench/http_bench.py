"""HTTP benchmark: the site under gunicorn, loaded by wrk on loopback, against whitenoise serving a static file.

Run `make bench` (it installs Debian's wrk when missing). One run measures, under the production settings:

- throughput, p50 and p99 latency and errors (wrk, BENCH_DURATION seconds at BENCH_CONNECTIONS connections) of
  the outline, the three-language compare page, a search, a paragraph's share picture (drawn by the first request
  for it, before the measurement) and a five-paragraph reading list, with the page cache warm;
- the same for whitenoise serving a static file as large as the compare page (its very HTML, so it compresses
  the same), and each page's throughput as a ratio of that;
- the compare page against the static file once more, in alternating slices (BENCH_SLICES of 5 s each), so
  that both see the same machine even when something else runs on it: the ratio that must reach 50%;
- the bytes on the wire per page, compressed as a browser asks (br, gzip), next to the uncompressed size.

It exits non-zero when any request failed or when the compare page reaches less than half the static file's
throughput. The database is a fresh SQLite file (BENCH_DATABASE_URL to use another) and the cache is Redis at
127.0.0.1:6379 under a key prefix of its own (local memory when Redis is not running); requests carry
X-Forwarded-Proto: https, as from the TLS proxy a deployment has in front of gunicorn.
"""

import gzip
import http.client
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
HOST, PORT = "127.0.0.1", int(os.environ.get("BENCH_PORT", "8160"))
DURATION = int(os.environ.get("BENCH_DURATION", "30"))
CONNECTIONS = int(os.environ.get("BENCH_CONNECTIONS", "64"))
THREADS = int(os.environ.get("BENCH_THREADS", "2"))
SLICES = int(os.environ.get("BENCH_SLICES", "6"))
SLICE_SECONDS = 5
HEADERS = {"Accept-Encoding": "br, gzip", "X-Forwarded-Proto": "https"}

COMPARE = "/en/ipg/2.3/?langs=en,zh-hans,ja"
SHARE_PAGE = "/ja/ipg/2.3/example-c/"
READING_LIST = "/en/list/?" + "&".join(
    f"p={reference}"
    for reference in ("2.3:example-c", "2.4:definition-1", "2.5:example-a", "2.1:definition-1", "2.6:definition-1")
)
STATIC_COPY = "bench/compare-page.html"
PICTURE = "share picture 2.3 ja"  # its URL, with the text's digest, is read from the share page's og:image
TARGETS = [
    ("outline", "/en/"),
    ("compare 2.3 en·zh·ja", COMPARE),
    ("search 'card'", "/en/search/?q=card"),
    (PICTURE, None),
    ("reading list, 5 ¶", READING_LIST),
    ("static, same size", f"/static/{STATIC_COPY}"),
]


def reachable(port, host="127.0.0.1"):
    try:
        socket.create_connection((host, port), timeout=1).close()
        return True
    except OSError:
        return False


def environment(workdir):
    env = {
        "PATH": os.environ["PATH"],
        "HOME": os.environ.get("HOME", "/"),
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": f"{HOST},localhost",
        "DATABASE_URL": os.environ.get("BENCH_DATABASE_URL", f"sqlite:///{workdir}/bench.sqlite3"),
        "STATIC_ROOT": str(workdir / "static"),
        "GUNICORN_BIND": f"{HOST}:{PORT}",
        "PREVIEW_IMAGE_DIR": str(workdir / "previews"),
    }
    if reachable(6379):
        env["CACHE_URL"] = f"redis://127.0.0.1:6379/0?key_prefix=bench-{os.getpid()}"
    for name in ("WEB_CONCURRENCY", "GUNICORN_THREADS"):
        if name in os.environ:
            env[name] = os.environ[name]
    return env


def forget_cache(env):
    """Redis is shared: leave none of this run's keys behind."""
    if "CACHE_URL" in env:
        import redis

        client = redis.Redis.from_url(env["CACHE_URL"].split("?")[0])
        for key in client.scan_iter(f"bench-{os.getpid()}:*"):
            client.delete(key)


def manage(env, *args):
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)


class Gunicorn:
    def __init__(self, env):
        self.env = env

    def __enter__(self):
        if reachable(PORT):
            sys.exit(f"Port {PORT} is taken: set BENCH_PORT.")
        command = [str(BIN / "gunicorn"), "-c", "ipgsite/gunicorn.conf.py", "ipgsite.wsgi"]
        self.process = subprocess.Popen(command, cwd=ROOT, env=self.env, start_new_session=True)
        deadline = time.monotonic() + 30
        while not reachable(PORT):
            if self.process.poll() is not None or time.monotonic() > deadline:
                sys.exit("gunicorn did not start")
            time.sleep(0.2)
        return self

    def __exit__(self, *exc):
        os.killpg(self.process.pid, signal.SIGTERM)
        self.process.wait(timeout=30)


def fetch(path, headers=HEADERS):
    """(status, bytes on the wire: status line, headers and body as sent, body as sent, headers)."""
    connection = http.client.HTTPConnection(HOST, PORT, timeout=30)
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    body = response.read()
    head = (
        f"HTTP/1.1 {response.status} {response.reason}\r\n"
        + "".join(f"{name}: {value}\r\n" for name, value in response.getheaders())
        + "\r\n"
    )
    connection.close()
    return response.status, len(head.encode("latin-1")) + len(body), body, dict(response.getheaders())


def decoded(body, encoding):
    if encoding == "br":
        import brotli

        return brotli.decompress(body)
    return gzip.decompress(body) if encoding == "gzip" else body


def wrk(path, duration=DURATION):
    command = ["wrk", f"-t{THREADS}", f"-c{CONNECTIONS}", f"-d{duration}s", "--latency", "--timeout", "10s"]
    for name, value in HEADERS.items():
        command += ["-H", f"{name}: {value}"]
    output = subprocess.run(
        command + [f"http://{HOST}:{PORT}{path}"], capture_output=True, text=True, check=True
    ).stdout
    errors = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", output))
    errors += int((re.search(r"Non-2xx or 3xx responses: (\d+)", output) or [0, 0])[1])
    return {
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1)),
        "requests": int(re.search(r"(\d+) requests in", output).group(1)),
        "p50": re.search(r"\s50%\s+(\S+)", output).group(1),
        "p99": re.search(r"\s99%\s+(\S+)", output).group(1),
        "errors": errors,
    }


def main():
    if not shutil.which("wrk"):
        sys.exit("wrk is not installed: `make bench` installs it (apt-get install wrk).")
    workdir = Path(tempfile.mkdtemp(prefix="ipg-http-bench-"))
    env = environment(workdir)
    print(f"Preparing in {workdir}: migrate, loadcontent, collectstatic …", flush=True)
    manage(env, "migrate", "--noinput")
    manage(env, "loadcontent")
    manage(env, "collectstatic", "--noinput")

    # The static file is the compare page's own HTML, compressed as collectstatic would have.
    with Gunicorn(env):
        status, _, html, _ = fetch(COMPARE, {**HEADERS, "Accept-Encoding": "identity"})
        assert status == 200, f"{COMPARE}: {status}"
        status, _, share, _ = fetch(SHARE_PAGE, {**HEADERS, "Accept-Encoding": "identity"})
        assert status == 200, f"{SHARE_PAGE}: {status}"
        image = re.search(rb'<meta property="og:image" content="https?://[^/"]+([^"]+)"', share)[1].decode()
    targets = [(name, path or image) for name, path in TARGETS]
    copy = workdir / "static" / STATIC_COPY
    copy.parent.mkdir(parents=True, exist_ok=True)
    copy.write_bytes(html)
    from whitenoise.compress import Compressor

    for _ in Compressor(quiet=True).compress(str(copy)):
        pass

    results = {}
    with Gunicorn(env):
        for name, path in targets:
            status, wire, body, headers = fetch(path)  # and this warms the page cache
            if status != 200:
                print(f"{name} ({path}) answers HTTP {status}: not measured.", flush=True)
                results[name] = {"status": status}
                continue
            fetch(path)
            plain = len(decoded(body, headers.get("Content-Encoding")))
            print(f"Loading {name} ({path}) for {DURATION} s at {CONNECTIONS} connections …", flush=True)
            results[name] = {
                **wrk(path),
                "wire": wire,
                "plain": plain,
                "encoding": headers.get("Content-Encoding", "-"),
            }
        print(f"Compare page and static file in {SLICES} alternating slices of {SLICE_SECONDS} s …", flush=True)
        served = {COMPARE: 0, TARGETS[-1][1]: 0}
        slice_errors = 0
        for _ in range(SLICES):
            for path in served:
                run = wrk(path, SLICE_SECONDS)
                served[path] += run["requests"]
                slice_errors += run["errors"]
    shutil.rmtree(workdir, ignore_errors=True)
    forget_cache(env)

    static = results[TARGETS[-1][0]]
    workers = env.get("WEB_CONCURRENCY", "one per core + 1")
    print()
    print(
        f"gunicorn ({workers} workers) on {HOST}:{PORT}, cache {'Redis' if 'CACHE_URL' in env else 'local memory'}, "
        f"wrk {DURATION} s, {CONNECTIONS} connections, {THREADS} threads"
    )
    print(
        f"{'page':<22} {'req/s':>8} {'requests':>9} {'p50':>9} {'p99':>9} {'errors':>6} {'÷ static':>9} "
        f"{'on the wire':>12} {'uncompressed':>13}"
    )
    for name, r in results.items():
        if "status" in r:
            print(f"{name:<22} HTTP {r['status']}")
            continue
        ratio = r["rps"] / static["rps"]
        print(
            f"{name:<22} {r['rps']:>8.0f} {r['requests']:>9} {r['p50']:>9} {r['p99']:>9} {r['errors']:>6} "
            f"{ratio:>8.0%} {r['wire']:>8} B {r['encoding']:<3}{r['plain']:>11} B"
        )

    failures = [f"{name}: HTTP {r['status']}" for name, r in results.items() if "status" in r]
    failures += [f"{name}: {r['errors']} errors" for name, r in results.items() if r.get("errors")]
    if slice_errors:
        failures.append(f"{slice_errors} errors in the alternating slices")
    compare = served[COMPARE] / served[TARGETS[-1][1]]
    print(
        f"\nCompare page, cache warm, alternating with the static file ({SLICES} × {SLICE_SECONDS} s each): "
        f"{served[COMPARE] / (SLICES * SLICE_SECONDS):.0f} against "
        f"{served[TARGETS[-1][1]] / (SLICES * SLICE_SECONDS):.0f} "
        f"requests/s, {compare:.0%} of the static file's throughput (needs at least 50%)."
    )
    if compare < 0.5:
        failures.append(f"compare page at {compare:.0%} of static throughput")
    if failures:
        sys.exit("FAILED: " + "; ".join(failures))
    print("OK: no errors, and the compare page holds at least half the static file's throughput.")


if __name__ == "__main__":
    main()
