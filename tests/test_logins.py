"""The admin login limit counts failures per (username, client address), whichever way gunicorn is bound.

gunicorn believes X-Forwarded-For/-Proto from a peer in FORWARDED_ALLOW_IPS (addresses or networks) and from
any unix-socket peer, whose REMOTE_ADDR is empty. The login limit takes the client's address by that same rule.
The requests below go through Django's test client with the REMOTE_ADDR and X-Forwarded-For each binding
gives; the last tests run gunicorn itself on a unix socket and on TCP.
"""

import http.client
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model

from deployments import set_up

ROOT = Path(__file__).resolve().parent.parent
LOGIN = "/admin/login/"
PASSWORD = "the right passphrase"
ATTACKER, VICTIM = "198.51.100.7", "203.0.113.9"

# (FORWARDED_ALLOW_IPS, the proxy's address as gunicorn passes it on in REMOTE_ADDR)
BINDINGS = {
    "tcp-exact": (["10.0.0.2"], "10.0.0.2"),
    "tcp-range": (["127.0.0.0/8"], "127.0.0.1"),
    "tcp-ipv6-range": (["fd00::/8"], "fd12::3"),
    "unix-socket": (["127.0.0.1", "::1"], ""),
}


@pytest.fixture
def translator(db):
    return get_user_model().objects.create_user("translator", password=PASSWORD, is_staff=True)


def attempt(client, password, proxy, forwarded_for=None, username="translator"):
    headers = {"REMOTE_ADDR": proxy}
    if forwarded_for is not None:
        headers["HTTP_X_FORWARDED_FOR"] = forwarded_for
    return client.post(LOGIN, {"username": username, "password": password}, **headers).status_code


def fail_to_the_limit(client, settings, proxy, forwarded_for):
    statuses = [attempt(client, f"guess {n}", proxy, forwarded_for) for n in range(settings.AXES_FAILURE_LIMIT)]
    assert statuses[:-1] == [200] * (settings.AXES_FAILURE_LIMIT - 1)
    assert statuses[-1] == 429


@pytest.mark.parametrize("binding", BINDINGS)
def test_the_lockout_lands_on_the_username_and_the_address_the_proxy_saw(client, settings, translator, binding):
    settings.FORWARDED_ALLOW_IPS, proxy = BINDINGS[binding]
    # The client's own X-Forwarded-For comes first; the proxy appends the address it saw.
    fail_to_the_limit(client, settings, proxy, f"{VICTIM}, {ATTACKER}")

    assert set(AccessAttempt.objects.values_list("username", "ip_address")) == {("translator", ATTACKER)}
    assert attempt(client, PASSWORD, proxy, ATTACKER) == 429
    # The same proxy, another reader: the attacker's failures are not theirs, whatever the attacker wrote.
    assert attempt(client, PASSWORD, proxy, VICTIM) == 302


@pytest.mark.parametrize("binding", BINDINGS)
def test_readers_behind_the_proxy_are_counted_apart(client, settings, translator, binding):
    """A limit that never triggers: every failure from a new address is as bad as a limit for everyone."""
    settings.FORWARDED_ALLOW_IPS, proxy = BINDINGS[binding]
    for n in range(settings.AXES_FAILURE_LIMIT - 1):
        assert attempt(client, f"guess {n}", proxy, ATTACKER) == 200
    assert attempt(client, PASSWORD, proxy, VICTIM) == 302
    client.logout()
    assert attempt(client, "one more guess", proxy, ATTACKER) == 429


@pytest.mark.parametrize("remote", ["198.51.100.7", "10.0.0.3", "2001:db8::7"])
def test_a_peer_that_is_no_trusted_proxy_is_counted_by_its_own_address(client, settings, translator, remote):
    settings.FORWARDED_ALLOW_IPS = ["10.0.0.2", "127.0.0.0/8"]
    statuses = [attempt(client, "guess", remote, f"192.0.2.{n}") for n in range(settings.AXES_FAILURE_LIMIT)]
    assert statuses[-1] == 429
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {remote}


def test_a_trusted_proxy_that_names_no_client_counts_as_itself(client, settings, translator):
    settings.FORWARDED_ALLOW_IPS = ["10.0.0.0/24"]
    fail_to_the_limit(client, settings, "10.0.0.2", None)
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"10.0.0.2"}


@pytest.mark.parametrize("forwarded_for", [None, "", "unix:", "not an address", "198.51.100.7:4711"])
def test_a_unix_socket_without_a_client_address_still_has_a_limit(client, settings, translator, forwarded_for):
    """No address to count by: every such login for the username is counted together (fail closed)."""
    fail_to_the_limit(client, settings, "", forwarded_for)
    assert attempt(client, PASSWORD, "", forwarded_for) == 429


def test_the_address_is_written_one_way(client, settings, translator):
    """2001:DB8::0:7 and 2001:db8::7 are one reader."""
    settings.FORWARDED_ALLOW_IPS = ["10.0.0.2"]
    spellings = ["2001:DB8::0:7", "2001:db8::7", " 2001:db8:0::7"]
    statuses = [attempt(client, "guess", "10.0.0.2", spellings[n % 3]) for n in range(settings.AXES_FAILURE_LIMIT)]
    assert statuses[-1] == 429


# --- Refusing to start when the settings leave the client's address ambiguous ---


def environment(**variables):
    env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/"), "DEBUG": "1"}
    env.update(variables)
    return env


def django_settings(**variables):
    return subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env=environment(**variables),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def gunicorn_check(*arguments, **variables):
    command = [
        str(Path(sys.executable).parent / "gunicorn"),
        "-c",
        "ipgsite/gunicorn.conf.py",
        *arguments,
        "--check-config",
        "ipgsite.wsgi",
    ]
    return subprocess.run(
        command, cwd=ROOT, env=environment(**variables), capture_output=True, text=True, timeout=120, check=False
    )


@pytest.mark.parametrize("value", ["*", "127.0.0.1,*", "10.0.0.1/8", "localhost", "10.0.0.2;10.0.0.3"])
def test_settings_refuse_a_trusted_set_that_is_not_addresses(value):
    django = django_settings(FORWARDED_ALLOW_IPS=value)
    assert django.returncode != 0
    assert "Refusing to start" in django.stderr and "FORWARDED_ALLOW_IPS" in django.stderr
    assert "Traceback" not in django.stderr, django.stderr
    # gunicorn validates its own default (the variable) before reading the configuration: it accepts `*` ...
    gunicorn = gunicorn_check(FORWARDED_ALLOW_IPS=value)
    assert gunicorn.returncode != 0
    if "*" in value:
        assert "Refusing to start" in gunicorn.stderr and "FORWARDED_ALLOW_IPS" in gunicorn.stderr
    else:  # ... and refuses what is no address with a message of its own
        assert "does not appear to be an IPv4 or IPv6" in gunicorn.stderr or "has host bits set" in gunicorn.stderr
    assert "Traceback" not in gunicorn.stderr, gunicorn.stderr


@pytest.mark.parametrize("value", ["127.0.0.1,::1", "10.0.0.2", "10.0.0.0/8, fd00::/8", ""])
def test_settings_accept_addresses_and_networks(value):
    for result in (django_settings(FORWARDED_ALLOW_IPS=value), gunicorn_check(FORWARDED_ALLOW_IPS=value)):
        assert result.returncode == 0, result.stderr


def test_gunicorn_refuses_a_unix_socket_that_no_proxy_names_the_client_on(tmp_path):
    socket_path = tmp_path / "ipg.sock"
    result = gunicorn_check(GUNICORN_BIND=f"unix:{socket_path}", FORWARDED_ALLOW_IPS="")
    assert result.returncode != 0
    assert "GUNICORN_BIND" in result.stderr and "FORWARDED_ALLOW_IPS" in result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    assert gunicorn_check(GUNICORN_BIND=f"unix:{socket_path}").returncode == 0


@pytest.mark.parametrize(
    "arguments, variables",
    [
        (["--forwarded-allow-ips", "10.0.0.0/8"], {"FORWARDED_ALLOW_IPS": "127.0.0.1"}),
        (["--bind", "unix:{socket}"], {"FORWARDED_ALLOW_IPS": ""}),
    ],
)
def test_gunicorn_refuses_a_command_line_that_leaves_the_client_ambiguous(tmp_path, arguments, variables):
    """--forwarded-allow-ips would make gunicorn and Django trust different peers; --bind skips GUNICORN_BIND."""
    arguments = [argument.format(socket=tmp_path / "ipg.sock") for argument in arguments]
    command = [
        str(Path(sys.executable).parent / "gunicorn"),
        "-c",
        "ipgsite/gunicorn.conf.py",
        *arguments,
        "ipgsite.wsgi",
    ]
    result = subprocess.run(
        command,
        cwd=ROOT,
        env=environment(GUNICORN_BIND=f"127.0.0.1:{free_port()}", **variables),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode != 0
    assert "Refusing to start" in result.stderr and "FORWARDED_ALLOW_IPS" in result.stderr
    assert "Traceback" not in result.stderr, result.stderr


# --- gunicorn itself, on a unix socket and on TCP behind a proxy in a range ---


class UnixConnection(http.client.HTTPConnection):
    def __init__(self, path):
        super().__init__("localhost", timeout=60)
        self.path = path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(60)
        self.sock.connect(self.path)


class Gunicorn:
    """gunicorn with the project's configuration; requests arrive as from the proxy in front of it."""

    def __init__(self, env, bind, connect):
        self.connect = connect
        command = [str(Path(sys.executable).parent / "gunicorn"), "-c", "ipgsite/gunicorn.conf.py", "ipgsite.wsgi"]
        env = {**env, "GUNICORN_BIND": bind, "WEB_CONCURRENCY": "1"}
        self.popen = subprocess.Popen(
            command, cwd=ROOT, env=env, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                self.request("GET", LOGIN, SimpleCookie(), None)
                return
            except OSError:
                if self.popen.poll() is not None:
                    raise RuntimeError(self.popen.stderr.read().decode()) from None
                time.sleep(0.02)
        self.stop()
        raise RuntimeError("gunicorn did not answer")

    def request(self, method, path, cookies, forwarded_for, form=None):
        connection = self.connect()
        headers = {"Host": "localhost", "X-Forwarded-Proto": "https"}
        if forwarded_for:
            headers["X-Forwarded-For"] = forwarded_for
        if cookies:
            headers["Cookie"] = "; ".join(f"{name}={morsel.value}" for name, morsel in cookies.items())
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Referer"] = f"https://localhost{LOGIN}"
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        text = response.read().decode()
        for value in response.headers.get_all("Set-Cookie") or []:
            cookies.load(value)
        connection.close()
        return response.status, text

    def log_in(self, password, forwarded_for):
        cookies = SimpleCookie()
        _, html = self.request("GET", LOGIN, cookies, forwarded_for)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
        form = {"csrfmiddlewaretoken": token, "username": "editor", "password": password}
        status, _ = self.request("POST", LOGIN, cookies, forwarded_for, form)
        return status

    def stop(self):
        os.killpg(self.popen.pid, signal.SIGTERM)
        self.popen.wait(timeout=30)


@pytest.fixture(scope="module")
def deployment(tmp_path_factory):
    """A deployment's settings on a SQLite database of its own, with one editor."""
    directory = tmp_path_factory.mktemp("gunicorn")
    env = {
        "PATH": os.environ["PATH"],
        "HOME": os.environ.get("HOME", "/"),
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "localhost",
        "DATABASE_URL": f"sqlite:///{directory}/ipg.sqlite3",
        "STATIC_ROOT": str(directory / "static"),
        "LOGIN_FAILURE_LIMIT": "3",
    }
    set_up(env, PASSWORD)
    return env, directory


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("binding, attacker", [("unix-socket", "198.51.100.7"), ("tcp-range", "198.51.100.8")])
def test_gunicorn_locks_out_the_attacker_and_lets_the_victim_in(deployment, binding, attacker):
    env, directory = deployment
    if binding == "unix-socket":
        path = str(directory / f"ipg-{secrets.token_hex(3)}.sock")
        server = Gunicorn(env, f"unix:{path}", lambda: UnixConnection(path))
    else:
        port = free_port()
        env = {**env, "FORWARDED_ALLOW_IPS": "127.0.0.0/8"}
        server = Gunicorn(env, f"127.0.0.1:{port}", lambda: http.client.HTTPConnection("127.0.0.1", port, timeout=60))
    try:
        statuses = [server.log_in(f"guess {n}", f"{VICTIM}, 192.0.2.{n}, {attacker}") for n in range(3)]
        assert statuses == [200, 200, 429]
        assert server.log_in(PASSWORD, attacker) == 429
        assert server.log_in(PASSWORD, VICTIM) == 302
    finally:
        server.stop()
