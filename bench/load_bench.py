"""Fast at every door (`make bench-load`): the site as deployed, gunicorn with the production settings, PostgreSQL and
Redis, each figure printed against its baseline measured in the same run, interleaved, with the load average:

1. Warm workers: a fresh worker's first request (the compare page, from the page cache) and first search, against the
   same worker's next five (from its fast lane), and against its first ask, once warm, for another page of the same
   kind that the page cache holds (the verdict: within 3x in CPU time); with the master warmed before it forks
   (ipgsite/gunicorn.conf.py) and, as it was before, without (bench/gunicorn_unwarmed.conf.py). One worker per
   server, so that the first request is the new worker's.
2. Replaced workers: p50 and p99 of the compare page at BENCH_CONNECTIONS connections while each worker is replaced
   every 1,000 to 1,500 requests, warmed and not, against the site's own setting (no replacement within the slice).
3. Throughput: the compare page from the page cache, through the fast lane and (as before it) without, against a
   static file of the same bytes (its own HTML, compressed the same) from the same gunicorn, in alternating slices,
   and the workers' CPU time per request. 3b. Search pages: 50 distinct searches in three languages
   (bench/search_mix.py) against the section page from the page cache, alternating slices, after a first slice of
   the searches alone (each worker renders each once); fails when their p99 is over 250 ms or any errs.
4. Pictures under load: BENCH_CONNECTIONS connections ask for every paragraph's picture in every language, none drawn
   before, each picture by four connections at the same moment: answers, retries (503 + Retry-After), errors,
   timeouts (10 s, as wrk's), latency, pictures stored.
5. Pictures at load time: `loadcontent` of 10x the content (content/ with 9 synthetic copies of each section with
   text, exported as files; without the finder, whose examples a copy cannot follow) into an empty database, as
   deployed, against the same load followed by drawing every picture as loads did before (the drawing timed on
   BENCH_SAMPLE pictures and scaled).
6. Picture bytes: average and largest, palette PNG against the same pictures in true colour, and how far their pixels
   differ (0-255); two examples of each are written to artifacts/bench-pictures/ to look at.

`--only first,throughput,search` runs some of the parts (first, replaced, throughput, search, pictures, loads).
The databases BENCH_DATABASE (default ipg_bench_load) and BENCH_DATABASE_load are created on the PostgreSQL server of
--postgres and dropped at the end; Redis keys carry a prefix of their own and are deleted.
"""

import argparse
import http.client
import json
import os
import queue
import random
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
HOST = "127.0.0.1"
BASE_PORT = int(os.environ.get("BENCH_PORT", "8180"))
CONNECTIONS = int(os.environ.get("BENCH_CONNECTIONS", "64"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "6"))
SLICES = int(os.environ.get("BENCH_SLICES", "6"))
SLICE_SECONDS = int(os.environ.get("BENCH_SLICE_SECONDS", "5"))
LOAD_ROUNDS = int(os.environ.get("BENCH_LOAD_ROUNDS", "2"))
SAMPLE = int(os.environ.get("BENCH_SAMPLE", "120"))
HEADERS = {"Accept-Encoding": "br, gzip", "X-Forwarded-Proto": "https"}
COMPARE = "/en/ipg/2.3/?langs=en,zh-hans,ja"
SEARCH = "/en/search/?q=card"
ANOTHER = {COMPARE: "/en/ipg/2.3/?langs=en,ja", SEARCH: "/en/search/?q=hand"}  # the same kinds of page
STATIC_COPY = "bench/compare-page.html"
WARMED = "ipgsite/gunicorn.conf.py"
PARTS = ("first", "replaced", "throughput", "search", "pictures", "loads")
SEARCH_P99_MS = 250
UNWARMED = "bench/gunicorn_unwarmed.conf.py"


def load_average():
    return os.getloadavg()[0]


def reachable(port):
    try:
        socket.create_connection((HOST, port), timeout=1).close()
        return True
    except OSError:
        return False


def get(port, path, timeout=30):
    """(milliseconds, status) of one GET on a new connection, as a browser behind the TLS proxy asks."""
    started = time.perf_counter()
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        connection.request("GET", path, headers=HEADERS)
        response = connection.getresponse()
        response.read()
        return (time.perf_counter() - started) * 1000, response.status
    finally:
        connection.close()


def manage(env, *args):
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)


class Gunicorn:
    """A gunicorn master with its workers, on a port of its own."""

    def __init__(self, env, port, config=WARMED, workers=3, **variables):
        self.env = {**env, "GUNICORN_BIND": f"{HOST}:{port}", "WEB_CONCURRENCY": str(workers), **variables}
        self.port, self.config, self.count = port, config, workers

    def __enter__(self):
        if reachable(self.port):
            sys.exit(f"Port {self.port} is taken: set BENCH_PORT.")
        command = [str(BIN / "gunicorn"), "-c", self.config, "ipgsite.wsgi"]
        self.process = subprocess.Popen(command, cwd=ROOT, env=self.env, start_new_session=True)
        deadline = time.monotonic() + 120
        while not reachable(self.port) or len(self.workers()) < self.count:
            if self.process.poll() is not None or time.monotonic() > deadline:
                sys.exit(f"gunicorn ({self.config}) did not start")
            time.sleep(0.2)
        self.wait_idle()
        return self

    def __exit__(self, *exc):
        os.killpg(self.process.pid, signal.SIGTERM)
        self.process.wait(timeout=60)

    def workers(self):
        found = subprocess.run(["ps", "--ppid", str(self.process.pid), "-o", "pid="], capture_output=True, text=True)
        return {int(pid) for pid in found.stdout.split()}

    def replace_workers(self):
        """Stop every worker; return once the master has forked as many fresh ones and they have booted."""
        old = self.workers()
        for pid in old:
            os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + 60
        while True:
            fresh = self.workers() - old
            if len(fresh) == self.count and not (self.workers() & old):
                break
            if time.monotonic() > deadline:
                sys.exit("gunicorn did not replace its workers")
            time.sleep(0.05)
        self.wait_idle()

    def wait_idle(self):
        """Until every worker has booted and waits for a connection: for a second, it sits in gunicorn's own wait
        and its CPU time grows by less than a millisecond (its heartbeat costs microseconds; a request, a
        millisecond or more)."""
        deadline = time.monotonic() + 60
        last, still = None, 0
        while time.monotonic() < deadline:
            time.sleep(0.5)
            now = {pid: cpu_ms(pid) for pid in self.workers()}
            idle = last is not None and now.keys() == last.keys() and all(now[p] - last[p] < 1 for p in now)
            still = still + 1 if idle and all(waiting(pid) for pid in now) else 0
            if still >= 2:
                return
            last = now

    def cpu_seconds(self):
        """User and system CPU time of the workers so far (of those alive now)."""
        ticks = os.sysconf("SC_CLK_TCK")
        total = 0
        for pid in self.workers():
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += int(fields[11]) + int(fields[12])
        return total / ticks


def waiting(pid):
    """Whether the process sits in select(2), poll(2) or epoll_wait(2), as gunicorn waits for a connection."""
    try:
        call = Path(f"/proc/{pid}/syscall").read_text().split()[0]
    except OSError:
        return False
    return call in WAITING_CALLS


# x86-64 numbers: poll, select, epoll_wait, pselect6, ppoll, epoll_pwait
WAITING_CALLS = {"7", "23", "232", "270", "271", "281"}


def wrk(port, path, seconds, connections=CONNECTIONS, script=None):
    command = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "--timeout", "10s"]
    if script:
        command += ["-s", str(script)]
    for name, value in HEADERS.items():
        command += ["-H", f"{name}: {value}"]
    output = subprocess.run(command + [f"http://{HOST}:{port}{path}"], capture_output=True, text=True, check=True)
    text = output.stdout
    errors = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", text))
    errors += int((re.search(r"Non-2xx or 3xx responses: (\d+)", text) or [0, 0])[1])
    return {
        "requests": int(re.search(r"(\d+) requests in", text).group(1)),
        "p50": milliseconds(re.search(r"\s50%\s+(\S+)", text).group(1)),
        "p99": milliseconds(re.search(r"\s99%\s+(\S+)", text).group(1)),
        "errors": errors,
    }


def milliseconds(figure):
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", figure).groups()
    return float(number) * {"us": 0.001, "ms": 1, "s": 1000, "m": 60000}[unit]


# --- 1. Warm workers ----------------------------------------------------------------------------------------------


def cpu_ms(pid):
    """The CPU time a process has run, in milliseconds (the scheduler's own count, to the nanosecond)."""
    return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0]) / 1e6


def timed(server, path):
    """(wall milliseconds, CPU milliseconds of the server's one worker) of a GET."""
    (worker,) = server.workers()
    before = cpu_ms(worker)
    wall, status = get(server.port, path)
    assert status == 200, (path, status)
    return wall, cpu_ms(worker) - before


def first_requests(servers):
    """{(server, path): [(first wall, next walls' median, first CPU, next CPUs' median, load, another page's wall,
    its CPU)]}, rounds interleaved between the servers. "Another page" is one the page cache holds that the worker,
    warm by then, has not answered yet (so its fast lane cannot): what any worker's first ask for a page costs."""
    found = {}
    for _round in range(ROUNDS):
        for name, server in servers.items():
            for path in (COMPARE, SEARCH):
                for _ in range(2):  # into the page cache (a search's page is kept once asked for again)
                    timed(server, ANOTHER[path])
                server.replace_workers()
                first = timed(server, path)
                after = [timed(server, path) for _ in range(5)]
                another = timed(server, ANOTHER[path])
                found.setdefault((name, path), []).append(
                    (
                        first[0],
                        statistics.median(a[0] for a in after),
                        first[1],
                        statistics.median(a[1] for a in after),
                        load_average(),
                        another[0],
                        another[1],
                    )
                )
    return found


def report_first_requests(found):
    """Prints the figures; returns {(server, path): CPU ratio of the first request to a warm worker's first ask}."""
    print(
        f"\n1. A fresh worker's first request against its next five (answered from its fast lane), and against the same"
        f"\n   worker's first ask, once warm, for another page the page cache holds: medians of {ROUNDS} rounds, one"
        "\n   worker a server; wall time (what the reader waits, with this machine's other work in it), then CPU time:"
    )
    print(
        f"   {'server':<18} {'page':<33} {'first':>7} {'next':>6} {'ratio':>6} {'another':>8} {'ratio':>6} | "
        f"{'CPU first':>9} {'next':>5} {'ratio':>6} {'another':>7} {'ratio':>6}  load"
    )
    ratios = {}
    for (name, path), rounds in found.items():
        first, after, cpu_first, cpu_after, _load, another, cpu_another = (
            statistics.median(r[i] for r in rounds) for i in range(7)
        )
        ratios[(name, path)] = cpu_first / cpu_another
        print(
            f"   {name:<18} {path:<33} {first:>5.1f}ms {after:>4.1f}ms {first / after:>5.1f}x "
            f"{another:>6.1f}ms {first / another:>5.1f}x | "
            f"{cpu_first:>7.1f}ms {cpu_after:>3.1f}ms {cpu_first / cpu_after:>5.1f}x {cpu_another:>5.1f}ms "
            f"{cpu_first / cpu_another:>5.1f}x  {statistics.mean(r[4] for r in rounds):.1f}"
        )
    return ratios


# --- 2. Replaced workers ------------------------------------------------------------------------------------------


def under_replacement(servers):
    found = {}
    for _slice in range(2):
        for name, server in servers.items():
            before = server.workers()
            seen = set(before)
            stop = threading.Event()

            def watch(server=server, seen=seen, stop=stop):
                while not stop.wait(0.05):
                    seen.update(server.workers())

            watcher = threading.Thread(target=watch)
            watcher.start()
            run = wrk(server.port, COMPARE, 10)
            stop.set()
            watcher.join()
            runs = found.setdefault(name, [])
            runs.append({**run, "replaced": len(seen - before), "load": load_average()})
    print(f"\n2. The compare page at {CONNECTIONS} connections, 2 × 10 s per server, alternating:")
    print(f"   {'server':<44} {'req/s':>6} {'p50 ms':>7} {'p99 ms':>7} {'workers replaced':>17} {'errors':>6}  load")
    for name, runs in found.items():
        requests = sum(r["requests"] for r in runs)
        print(
            f"   {name:<44} {requests / 20:>6.0f} {statistics.mean(r['p50'] for r in runs):>7.1f} "
            f"{max(r['p99'] for r in runs):>7.1f} {sum(r['replaced'] for r in runs):>17} "
            f"{sum(r['errors'] for r in runs):>6}  {statistics.mean(r['load'] for r in runs):.1f}"
        )
    return found


# --- 3. Throughput ------------------------------------------------------------------------------------------------


def throughput(server, without_fast_lane):
    """The compare page from the page cache, through the fast lane and (as before it) without, against a static file
    of the same bytes from the same gunicorn: alternating slices."""
    targets = {
        "compare page, from the page cache": (server, COMPARE),
        "the same, without the fast lane": (without_fast_lane, COMPARE),
        "static file, same bytes": (server, f"/static/{STATIC_COPY}"),
    }
    totals = {name: {"requests": 0, "cpu": 0.0, "errors": 0} for name in targets}
    loads = []
    for _slice in range(SLICES):
        for name, (target, path) in targets.items():
            cpu = target.cpu_seconds()
            run = wrk(target.port, path, SLICE_SECONDS)
            totals[name]["cpu"] += target.cpu_seconds() - cpu
            totals[name]["requests"] += run["requests"]
            totals[name]["errors"] += run["errors"]
            loads.append(load_average())
    seconds = SLICES * SLICE_SECONDS
    print(
        f"\n3. Throughput at {CONNECTIONS} connections, {SLICES} alternating slices of {SLICE_SECONDS} s "
        f"(3 workers a server, load {statistics.mean(loads):.1f}):"
    )
    for name, total in totals.items():
        print(
            f"   {name:<36} {total['requests'] / seconds:>7.0f} requests/s, "
            f"{total['cpu'] / max(total['requests'], 1) * 1e6:>5.0f} µs of worker CPU a request, "
            f"{total['errors']} errors"
        )
    static = totals["static file, same bytes"]
    ratio = None
    for name in ("compare page, from the page cache", "the same, without the fast lane"):
        page = totals[name]
        ratio = ratio or page["requests"] / static["requests"]
        cpu_ratio = (static["cpu"] / static["requests"]) / (page["cpu"] / page["requests"])
        print(
            f"   {name} ÷ static file: {page['requests'] / static['requests']:.2f}x the requests/s; "
            f"{cpu_ratio:.2f}x by worker CPU a request"
        )
    return ratio, sum(total["errors"] for total in totals.values())


# --- 3b. Search pages under load ---------------------------------------------------------------------------------


def search_script(directory):
    """A wrk script that asks for the 50 searches of bench/search_mix.py in turn."""
    sys.path.insert(0, str(ROOT / "bench"))
    from search_mix import urls

    paths = ", ".join(f'"{url}"' for url in urls())
    script = directory / "search-mix.lua"
    script.write_text(
        f"local paths = {{{paths}}}\nlocal i = math.random(#paths)\n"
        "request = function()\n  i = i % #paths + 1\n  return wrk.format(nil, paths[i])\nend\n"
    )
    return script


def searches(server, directory):
    """The 50 searches at BENCH_CONNECTIONS connections against the section page from the page cache, in alternating
    slices; first a slice of the searches alone as the workers first meet them (each renders each once)."""
    script = search_script(directory)
    first = wrk(server.port, "/", SLICE_SECONDS, script=script)
    targets = {"section page, from the page cache": (COMPARE, None), "50 searches, 3 languages": ("/", script)}
    runs = {name: [] for name in targets}
    for _slice in range(SLICES):
        for name, (path, mix) in targets.items():
            runs[name].append({**wrk(server.port, path, SLICE_SECONDS, script=mix), "load": load_average()})
    print(
        f"\n3b. Search pages at {CONNECTIONS} connections, {SLICES} alternating slices of {SLICE_SECONDS} s "
        f"(3 workers), against the section page:"
    )
    print(f"   {'':<36} {'req/s':>7} {'p50 ms':>7} {'p99 ms':>7} {'errors':>6}  load")
    rows = {"50 searches, first slice (each rendered)": [{**first, "load": load_average()}], **runs}
    for name, found in rows.items():
        seconds = SLICE_SECONDS * len(found)
        print(
            f"   {name:<36} {sum(r['requests'] for r in found) / seconds:>7.0f} "
            f"{statistics.median(r['p50'] for r in found):>7.1f} {max(r['p99'] for r in found):>7.1f} "
            f"{sum(r['errors'] for r in found):>6}  {statistics.mean(r['load'] for r in found):.1f}"
        )
    mix, section = runs["50 searches, 3 languages"], runs["section page, from the page cache"]
    p99, baseline = max(r["p99"] for r in mix), max(r["p99"] for r in section)
    print(f"   searches ÷ section page: {p99 / baseline:.2f}x the p99 (the goal: at most {SEARCH_P99_MS} ms)")
    return p99, sum(r["errors"] for r in mix)


# --- 4. Pictures under load ---------------------------------------------------------------------------------------


def pictures_under_load(server, paragraphs, previews):
    urls = [f"/{code}/ipg/{number}/{key}/preview.png" for number, key in paragraphs for code in ("en", "zh-hans", "ja")]
    random.Random(1).shuffle(urls)
    asks = queue.Queue()
    for url in urls:
        for _ in range(4):
            asks.put(url)
    answers, lock = [], threading.Lock()

    def connection():
        while True:
            try:
                url = asks.get_nowait()
            except queue.Empty:
                return
            started = time.perf_counter()
            try:
                status = get(server.port, url, timeout=10)[1]
                outcome = status
            except TimeoutError:
                outcome = "timeout"
            except OSError:
                outcome = "error"
            with lock:
                answers.append((outcome, (time.perf_counter() - started) * 1000))

    started = time.perf_counter()
    threads = [threading.Thread(target=connection) for _ in range(CONNECTIONS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    outcomes = [outcome for outcome, _ in answers]
    latencies = sorted(ms for _, ms in answers)
    stored = list(previews.glob("*.png"))
    print(
        f"\n4. Pictures never drawn, {len(urls)} of them, each asked for by 4 of {CONNECTIONS} connections at once "
        f"({len(answers)} requests in {elapsed:.1f} s, load {load_average():.1f}):"
    )
    print(
        f"   200: {outcomes.count(200)}, 503 with Retry-After: {outcomes.count(503)}, other statuses: "
        f"{sum(1 for o in outcomes if isinstance(o, int) and o not in (200, 503))}, errors: {outcomes.count('error')}, "
        f"timeouts (10 s): {outcomes.count('timeout')}; p50 {latencies[len(latencies) // 2]:.0f} ms, "
        f"p99 {latencies[int(len(latencies) * 0.99)]:.0f} ms; pictures stored: {len(stored)} of {len(urls)}"
    )
    return outcomes.count("error") + outcomes.count("timeout") + (len(outcomes) - outcomes.count(200)), stored


# --- 5 and 6. Loads and picture bytes (the drawing runs in a Django process of its own: --sample) -----------------


def sample(count, out):
    """In a Django process: draw `count` pictures of the database's paragraphs, palette and true colour; JSON."""
    import io

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ipgsite.settings")
    django.setup()
    from PIL import Image, ImageChops, ImageStat

    from ipgsite.ipg.models import Paragraph
    from ipgsite.study import cards, pictures

    paragraphs = list(Paragraph.objects.select_related("section").order_by("id"))
    chosen = random.Random(2).sample([(p, c) for p in paragraphs for c in ("en", "zh-hans", "ja")], count)
    palette, colour, differences, seconds = [], [], [], 0.0
    out.mkdir(parents=True, exist_ok=True)
    for index, (paragraph, code) in enumerate(chosen):
        card = pictures.card_for(paragraph.section, paragraph, code)
        started = time.perf_counter()
        data = cards.draw(card)
        seconds += time.perf_counter() - started
        true = io.BytesIO()
        image = cards.in_colour(card)
        image.save(true, "PNG")
        palette.append(len(data))
        colour.append(len(true.getvalue()))
        difference = ImageChops.difference(image, Image.open(io.BytesIO(data)).convert("RGB")).convert("L")
        differences.append((ImageStat.Stat(difference).mean[0], difference.getextrema()[1]))
        if index < 2:
            (out / f"{card.prefix}palette.png").write_bytes(data)
            (out / f"{card.prefix}true-colour.png").write_bytes(true.getvalue())
    print(
        json.dumps(
            {
                "count": count,
                "pictures": len(paragraphs) * 3,
                "seconds_each": seconds / count,
                "palette": [statistics.mean(palette), max(palette)],
                "colour": [statistics.mean(colour), max(colour)],
                "difference": [statistics.mean(d[0] for d in differences), max(d[1] for d in differences)],
            }
        )
    )


def loads(env, content, previews):
    timings, drawn = [], []
    for _round in range(LOAD_ROUNDS):
        manage(env, "flush", "--noinput")
        started = time.perf_counter()
        manage({**env, "CONTENT_DIR": str(content)}, "loadcontent")
        timings.append((time.perf_counter() - started, load_average()))
        drawn.append(len(list(previews.glob("*.png"))))
    drawing = subprocess.run(
        [sys.executable, __file__, "--sample", str(SAMPLE)], cwd=ROOT, env=env, capture_output=True, text=True
    )
    if drawing.returncode:
        sys.exit(f"Drawing the sample failed:\n{drawing.stderr}")
    figures = json.loads(drawing.stdout.strip().splitlines()[-1])
    load = statistics.median(t for t, _ in timings)
    before = load + figures["pictures"] * figures["seconds_each"]
    print(
        f"\n5. loadcontent of 10x the content into an empty database ({figures['pictures'] // 3} paragraphs), "
        f"{LOAD_ROUNDS} rounds:"
    )
    print(
        f"   as deployed: {load:.1f} s (each: {', '.join(f'{t:.1f} s at load {a:.1f}' for t, a in timings)}); "
        f"pictures drawn by the loads: {', '.join(map(str, drawn))}"
    )
    print(
        f"   as loads were before, drawing its {figures['pictures']} pictures too: {before:.1f} s "
        f"({figures['seconds_each'] * 1000:.0f} ms a picture, timed on {figures['count']}); "
        f"the load takes {load / before:.2f} of that, and 1.00x a load without pictures: it draws none"
    )
    palette, colour, difference = figures["palette"], figures["colour"], figures["difference"]
    print(f"\n6. Picture bytes, {figures['count']} pictures of the 10x content (palette PNG against true colour):")
    print(
        f"   average {palette[0] / 1024:.1f} KB against {colour[0] / 1024:.1f} KB ({palette[0] / colour[0]:.2f}x), "
        f"largest {palette[1] / 1024:.1f} KB against {colour[1] / 1024:.1f} KB; pixels differ by "
        f"{difference[0]:.2f} on average, {difference[1]} at most (of 255); examples in artifacts/bench-pictures/"
    )
    return sum(drawn), palette[0]


# --- Setting up ---------------------------------------------------------------------------------------------------


def create_database(server_url, name):
    import psycopg

    with psycopg.connect(f"{server_url}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name}")
        conn.execute(
            f"CREATE DATABASE {name} TEMPLATE template0 ENCODING 'UTF8' LC_CTYPE 'C.UTF-8' LC_COLLATE 'C.UTF-8'"
        )
    return f"{server_url}/{name}"


def drop_database(server_url, name):
    import psycopg

    with psycopg.connect(f"{server_url}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def forget_cache(prefix):
    import redis

    client = redis.Redis(HOST, 6379)
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)


def paragraphs_of(database_url):
    import psycopg

    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT s.number, p.key FROM ipg_paragraph p JOIN ipg_section s ON s.id = p.section_id ORDER BY p.id"
        )
        return list(rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", default="postgres://postgres@127.0.0.1:5432/ipg", help="a PostgreSQL server")
    parser.add_argument("--sample", type=int, help=argparse.SUPPRESS)
    parser.add_argument(
        "--only",
        help=f"comma-separated parts to run, of {','.join(PARTS)} (default: all)",
        type=lambda value: set(value.split(",")),
        default=set(PARTS),
    )
    arguments = parser.parse_args()
    only = arguments.only
    if arguments.sample:
        sys.path.insert(0, str(ROOT))
        return sample(arguments.sample, ROOT / "artifacts" / "bench-pictures")
    if not shutil.which("wrk"):
        sys.exit("wrk is not installed: `make bench-load` installs it (apt-get install wrk).")
    if not reachable(6379):
        sys.exit("Redis is not running on 127.0.0.1:6379.")
    server_url = arguments.postgres.rsplit("/", 1)[0]
    name = os.environ.get("BENCH_DATABASE", "ipg_bench_load")
    workdir = Path(tempfile.mkdtemp(prefix="ipg-load-bench-"))
    prefix = f"bench-load-{os.getpid()}"
    env = {
        "PATH": os.environ["PATH"],
        "HOME": os.environ.get("HOME", "/"),
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": f"{HOST},localhost",
        "DATABASE_URL": create_database(server_url, name),
        "STATIC_ROOT": str(workdir / "static"),
        "PREVIEW_IMAGE_DIR": str(workdir / "previews"),
        "CACHE_URL": f"redis://{HOST}:6379/0?key_prefix={prefix}",
    }
    load_env = {
        **env,
        "DATABASE_URL": create_database(server_url, f"{name}_load"),
        "PREVIEW_IMAGE_DIR": str(workdir / "load-previews"),
    }
    failures = []
    try:
        print(f"Preparing in {workdir}: PostgreSQL {name} and {name}_load, Redis prefix {prefix} …", flush=True)
        manage(env, "migrate", "--noinput")
        manage(env, "loadcontent")
        manage(env, "collectstatic", "--noinput")
        with Gunicorn(env, BASE_PORT) as server:
            html = http.client.HTTPConnection(HOST, server.port, timeout=30)
            html.request("GET", COMPARE, headers={**HEADERS, "Accept-Encoding": "identity"})
            page = html.getresponse().read()
        copy = workdir / "static" / STATIC_COPY
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_bytes(page)
        from whitenoise.compress import Compressor

        for _ in Compressor(quiet=True).compress(str(copy)):
            pass
        if "loads" in only:
            print("The 10x content: content/ with 9 copies of each section with text, exported as files …", flush=True)
            manage(load_env, "migrate", "--noinput")
            manage(load_env, "loadcontent")
            copies = "import django; django.setup(); from corpus import add_copies; add_copies(9)"
            subprocess.run(
                [sys.executable, "-c", copies],
                cwd=ROOT,
                env={
                    **load_env,
                    "PYTHONPATH": f"{ROOT}:{ROOT / 'bench'}",
                    "DJANGO_SETTINGS_MODULE": "ipgsite.settings",
                },
                check=True,
            )
            content = workdir / "content-10x"
            manage(load_env, "exportcontent", str(content))
            # The finder's worked examples end at their own section, which a copy is not: the 10x load has no finder.
            (content / "finder.toml").unlink()
        shutil.rmtree(workdir / "previews", ignore_errors=True)

        if "first" in only:
            print(f"\nStarting gunicorn servers on ports {BASE_PORT + 1}-{BASE_PORT + 2} …", flush=True)
            with (
                Gunicorn(env, BASE_PORT + 1, WARMED, workers=1) as warmed_one,
                Gunicorn(env, BASE_PORT + 2, UNWARMED, workers=1) as unwarmed_one,
            ):
                get(warmed_one.port, COMPARE)
                found = first_requests({"warmed master": warmed_one, "unwarmed (before)": unwarmed_one})
            ratios = report_first_requests(found)
            failures += [
                f"{name} {path}: first request {r:.1f}x a warm worker's first ask for a cached page"
                for (name, path), r in ratios.items()
                if name == "warmed master" and r > 3
            ]

        print(f"\nStarting gunicorn servers on ports {BASE_PORT + 3}-{BASE_PORT + 6} …", flush=True)
        with (
            Gunicorn(env, BASE_PORT + 3, WARMED) as deployed,
            Gunicorn(env, BASE_PORT + 4, WARMED, GUNICORN_MAX_REQUESTS="1000") as replacing,
            Gunicorn(env, BASE_PORT + 5, UNWARMED, GUNICORN_MAX_REQUESTS="1000") as replacing_unwarmed,
            Gunicorn(env, BASE_PORT + 6, WARMED, PAGE_CACHE_FAST_LANE="0") as without_fast_lane,
        ):
            for server in (deployed, replacing, replacing_unwarmed, without_fast_lane):
                get(server.port, COMPARE)
            if "replaced" in only:
                replaced = under_replacement(
                    {
                        "warmed, as configured (none in 10 s)": deployed,
                        "warmed, replaced every 1,000-1,500": replacing,
                        "unwarmed (before), replaced every 1,000-1,500": replacing_unwarmed,
                    }
                )
                failures += [
                    f"{name}: {sum(r['errors'] for r in runs)} errors"
                    for name, runs in replaced.items()
                    if any(r["errors"] for r in runs)
                ]
            if "throughput" in only:
                ratio, errors = throughput(deployed, without_fast_lane)
                if errors:
                    failures.append(f"throughput: {errors} errors")
            if "search" in only:
                p99, errors = searches(deployed, workdir)
                if p99 > SEARCH_P99_MS or errors:
                    failures.append(f"searches: p99 {p99:.0f} ms (at most {SEARCH_P99_MS}), {errors} errors")
            if "pictures" in only:
                bad, stored = pictures_under_load(deployed, paragraphs_of(env["DATABASE_URL"]), workdir / "previews")
                if bad:
                    failures.append(f"pictures under load: {bad} requests without their picture")
        if "loads" in only:
            drawn, average = loads(load_env, content, workdir / "load-previews")
            if drawn:
                failures.append(f"the loads drew {drawn} pictures")
            if average > 25 * 1024:
                failures.append(f"pictures of {average / 1024:.1f} KB on average")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
        forget_cache(prefix)
        drop_database(server_url, name)
        drop_database(server_url, f"{name}_load")
    if failures:
        sys.exit("\nFAILED: " + "; ".join(failures))
    print(
        f"\nOK: no errors or timeouts, searches' p99 within {SEARCH_P99_MS} ms, loads draw no picture, pictures under "
        "25 KB on average."
    )


if __name__ == "__main__":
    main()
