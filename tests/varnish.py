"""The site as a deployment serves it from the edge: gunicorn (production settings) behind a real Varnish, on loopback.

Used by tests/test_edge_varnish.py and bench/edge_bench.py. Varnish is Debian's `varnish` (`make edge-deps`),
run as `varnishd -F` on a free port with a working directory of its own (`-n`), with the VCL that
`manage.py varnishvcl` prints for the gunicorn in front of which it stands.
"""

import http.client
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VARNISHD = shutil.which("varnishd") or "/usr/sbin/varnishd"
# As the TLS proxy in front of Varnish passes a reader's request on.
TLS_PROXY_HEADERS = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.7"}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def reachable(port, host="127.0.0.1"):
    try:
        socket.create_connection((host, port), timeout=1).close()
        return True
    except OSError:
        return False


def why_varnish_cannot_run():
    """None when varnishd is installed and compiles a VCL here; else what is missing."""
    if not os.path.exists(VARNISHD):
        return "varnishd is not installed (make edge-deps installs Debian's varnish)"
    check = subprocess.run([VARNISHD, "-V"], capture_output=True, text=True)
    if check.returncode != 0:
        return f"varnishd does not run here: {check.stderr.strip()}"
    return None


def manage(env, *command, **kwargs):
    return subprocess.run(
        [sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True, capture_output=True, **kwargs
    )


class Gunicorn:
    """gunicorn with the given environment on a free port (or `port`), stopped by its process group."""

    def __init__(self, env, workers=2, port=None):
        self.port = port or free_port()
        command = [str(Path(sys.executable).parent / "gunicorn"), "-c", "ipgsite/gunicorn.conf.py", "ipgsite.wsgi"]
        self.popen = subprocess.Popen(
            command,
            cwd=ROOT,
            env={**env, "GUNICORN_BIND": f"127.0.0.1:{self.port}", "WEB_CONCURRENCY": str(workers)},
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        while not reachable(self.port):
            if self.popen.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("gunicorn did not start")
            time.sleep(0.05)

    def stop(self):
        if self.popen.poll() is None:
            os.killpg(self.popen.pid, signal.SIGTERM)
        self.popen.wait(timeout=30)


class Varnish:
    """varnishd in the foreground, with the site's VCL for `backend` (HOST:PORT), or the VCL `vcl` (its text), on a
    free port (or `port`)."""

    def __init__(self, env, backend, workdir, port=None, storage="malloc,64m", vcl=None):
        self.port = port or free_port()
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.vcl = self.workdir / "site.vcl"
        self.vcl.write_text(vcl or manage(env, "varnishvcl", "--backend", backend, text=True).stdout)
        self.name = str(self.workdir / "n")
        command = [
            VARNISHD,
            "-F",
            "-j",
            "none",  # no jail: the tests may run as root or not
            "-n",
            self.name,
            "-a",
            f"127.0.0.1:{self.port}",
            "-T",
            f"127.0.0.1:{free_port()}",
            "-f",
            str(self.vcl),
            "-s",
            storage,
            "-p",
            "http_gzip_support=off",
        ]
        self.log = open(self.workdir / "varnishd.log", "w")  # noqa: SIM115 (closed in stop)
        self.popen = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 60
        while not reachable(self.port):
            if self.popen.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("varnishd did not start: " + (self.workdir / "varnishd.log").read_text()[-2000:])
            time.sleep(0.05)

    def admin(self, *command):
        return subprocess.run(
            ["varnishadm", "-n", self.name, *command], capture_output=True, text=True, check=True
        ).stdout

    def counters(self):
        """MAIN counters from varnishstat: cache_hit, cache_miss, s_pass, s_synth, …"""
        output = subprocess.run(
            ["varnishstat", "-n", self.name, "-1", "-f", "MAIN.*"], capture_output=True, text=True, check=True
        ).stdout
        counters = {}
        for line in output.splitlines():
            name, value, *_ = line.split()
            counters[name.removeprefix("MAIN.")] = int(value)
        return counters

    def healthy(self):
        return "healthy" in self.admin("backend.list").lower()

    def stop(self):
        if self.popen.poll() is None:
            os.killpg(self.popen.pid, signal.SIGTERM)
            self.popen.wait(timeout=30)
        self.log.close()


def request(port, method, path, headers=None, body=None):
    """One request on a fresh connection; the response with `.body` read (as sent: not decompressed)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        response.body = response.read()
    finally:
        connection.close()
    return response
