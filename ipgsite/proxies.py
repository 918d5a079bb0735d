"""Who the client is: the trusted proxies of FORWARDED_ALLOW_IPS, read once for gunicorn and for Django.

gunicorn believes X-Forwarded-Proto/-For from a peer whose address lies in one of these networks (an
address is a network of one) and from every unix-socket peer, whose REMOTE_ADDR is empty. The login limit
(ipgsite/logins.py) takes the client's address by that same rule: a trusted peer's last X-Forwarded-For
entry, which the proxy appended; any other peer's own address.

gunicorn.conf.py imports this module before Django is set up: the standard library only.
"""

import ipaddress
from functools import lru_cache

VARIABLE = "FORWARDED_ALLOW_IPS"
DEFAULT = "127.0.0.1,::1"


class Ambiguous(ValueError):
    """Settings that leave the client's address to whoever sends the request."""


def trusted_proxies(value):
    """FORWARDED_ALLOW_IPS as a list of addresses and networks; `*` and anything unparsable are refused."""
    entries = [entry.strip() for entry in value.split(",") if entry.strip()]
    if "*" in entries:
        raise Ambiguous(
            f"{VARIABLE}=* believes X-Forwarded-For from anyone, so anyone chooses the address the login limit "
            "counts. Name the proxies' addresses or networks, e.g. 127.0.0.1,::1 or 10.0.0.0/24."
        )
    for entry in entries:
        try:
            ipaddress.ip_network(entry)  # strict, as gunicorn: 10.0.0.1/8 is a mistake for 10.0.0.0/8
        except ValueError as error:
            raise Ambiguous(f"{VARIABLE}: {entry!r} is not an address or a network ({error}).") from None
    return entries


@lru_cache(maxsize=8)
def _networks(entries):
    return tuple(ipaddress.ip_network(entry) for entry in entries)


def is_trusted(peer, entries):
    """gunicorn's rule: a unix-socket peer (no address) always, an address when one of the networks holds it."""
    if not peer:
        return True
    try:
        address = ipaddress.ip_address(peer)
    except ValueError:
        return False
    return any(address in network for network in _networks(tuple(entries)))


def client_address(remote_addr, forwarded_for, entries):
    """The client's address, written one way; None when a trusted peer names none we can read."""
    remote_addr = (remote_addr or "").strip()
    if is_trusted(remote_addr, entries):
        hops = [hop.strip() for hop in (forwarded_for or "").split(",")]
        if hops[-1]:
            return _address(hops[-1])
    return _address(remote_addr)


def _address(text):
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        return None


def check_binding(binds, entries):
    """Refuses a unix-socket bind while FORWARDED_ALLOW_IPS names no proxy: gunicorn would still believe
    the socket's peer, yet nobody would be trusted to say who the client is."""
    sockets = [bind for bind in binds if bind.startswith("unix:")]
    if sockets and not entries:
        raise Ambiguous(
            f"GUNICORN_BIND={','.join(sockets)} is a unix socket, whose peer gunicorn always believes, but "
            f"{VARIABLE} is empty. The proxy on the socket must append the client's address to X-Forwarded-For: "
            f"leave {VARIABLE} at its default or name the proxies."
        )
