"""Process-wide settings of the server the app runs in, applied once per process.

Streamlit (1.67) binds its listening socket itself with ``socket.socket(family)``, whose ``proto`` is 0.
asyncio turns Nagle's algorithm off (``TCP_NODELAY``) only on accepted sockets whose ``proto`` is
``IPPROTO_TCP``, so every websocket is left with Nagle on (uvicorn issue #3149). A rerun sends dozens
of small messages; with Nagle, those after the first can wait for the client's delayed ACK (40 ms on
Linux, up to 200 ms on Windows). The load test's client saw each rerun take about 30 ms longer than
the script (``bench/load.py``); Chromium, which acknowledges at once, did not. Linux copies
``TCP_NODELAY`` from a listening socket to the sockets it accepts, so setting it on the listener fixes
every later connection; the ones already open get it directly.
"""

from __future__ import annotations

import os
import socket

from glue.workers import warm_up

_done = False


def socket_fds() -> list[int]:
    """File descriptors of this process's sockets of every kind, from ``/proc``.

    Returns
    -------
    list of int
        Empty where ``/proc/self/fd`` does not exist (not Linux).
    """
    try:
        names = os.listdir("/proc/self/fd")
    except OSError:
        return []
    fds = []
    for name in names:
        try:
            if os.readlink(f"/proc/self/fd/{name}").startswith("socket:"):
                fds.append(int(name))
        except OSError:
            continue  # closed while we looked
    return fds


def no_delay() -> int:
    """Turn Nagle's algorithm off on every TCP socket of this process; return how many were set.

    Each descriptor is duplicated, so the option is set on the very socket the server uses, and the
    duplicate is closed again. Sockets that are not TCP (Unix sockets, UDP) are left alone.
    """
    n = 0
    for fd in socket_fds():
        try:
            dup = os.dup(fd)
        except OSError:
            continue  # closed since it was listed
        try:
            s = socket.socket(fileno=dup)
        except OSError:  # no longer a socket (the number was reused)
            os.close(dup)
            continue
        try:
            if s.family in (socket.AF_INET, socket.AF_INET6) and s.type == socket.SOCK_STREAM:
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                n += 1
        except OSError:
            pass
        finally:
            s.close()
    return n


def tune_once() -> None:
    """Apply the process-wide settings the first time any session runs the app, and start the workers."""
    global _done
    if not _done:
        _done = True
        no_delay()
        warm_up()
