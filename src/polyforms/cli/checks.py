"""What the command line checks after parsing, before any work: the options
argparse cannot check one by one.

Imported by :func:`polyforms.cli.main` once the arguments are parsed, so that
``polyforms --help`` does without it.
"""

from __future__ import annotations

import argparse
import os
import sys

from .._textio import shorten
from ..errors import PolyformError

__all__ = ["DASK_SCHEMES", "check_together", "dask_address_problem"]


def _shown(text: str) -> str:
    return repr(shorten(text, 40))


def check_together(args: argparse.Namespace) -> None:
    """What argparse cannot check option by option, checked before any work.

    Standard output closed (``>&-``: Python then has no sys.stdout) while the
    command would write there; a ``--dask`` address that is not one (a run that
    never splits would ignore it); a gap as large as the unit.

    Raises
    ------
    PolyformError
    """
    only_stdout = (  # what these print has no -o FILE
        args.command in ("solve", "calendar")
        or getattr(args, "count", False)
        or getattr(args, "estimate", False)
    )
    if sys.stdout is None:
        if only_stdout:
            raise PolyformError("standard output is closed")
        if getattr(args, "output", None) in (None, "-"):
            raise PolyformError("standard output is closed; give -o FILE")
        # Nothing goes there; a stray write must not end the command with a traceback.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - kept for the process's life
    dask = getattr(args, "dask", None)
    if dask is not None:
        problem = dask_address_problem(dask)
        if problem:
            raise PolyformError(f"not a dask scheduler address: {problem}")
    gap, unit = getattr(args, "gap", 0.0), getattr(args, "unit", None)
    if unit is not None and gap >= unit:
        raise PolyformError(f"the gap ({gap:g} mm) must be less than the unit ({unit:g} mm)")


#: The schemes of a Dask scheduler's address (distributed's comm backends).
DASK_SCHEMES = ("tcp", "tls", "ucx", "ws", "wss")


def dask_address_problem(address: str) -> str | None:
    """What is wrong with a ``--dask`` address, or None: ``local``, ``HOST:PORT``, or
    ``SCHEME://HOST:PORT`` (SCHEME tcp, tls, ucx, ws or wss; an IPv6 host in brackets).

    Only the form is checked; whether a scheduler answers is found when the run
    connects.
    """
    if address == "local":
        return None
    shown = _shown(address)
    hint = " (give local, tcp://HOST:PORT or HOST:PORT)" if address else ""
    scheme, found, rest = address.partition("://")
    if not found:
        scheme, rest = "tcp", address
    if scheme not in DASK_SCHEMES:
        return f"unknown scheme {_shown(scheme)} in address {shown}{hint}"
    host, colon, port = rest.rpartition(":")
    if not colon or not host or (host.count(":") and not host.startswith("[")):
        return f"missing port number in address {shown}{hint}"
    if not (port.isascii() and port.isdigit() and 1 <= int(port) <= 65535):
        return f"port {_shown(port)} is not from 1 to 65535 in address {shown}{hint}"
    bare = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not bare or not bare.isascii() or any(c.isspace() or c in "/[]@" for c in bare):
        return f"bad host {_shown(host)} in address {shown}{hint}"
    return None
