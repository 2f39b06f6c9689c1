"""Reading a studio request: its body within :data:`MAX_BODY` bytes, as bytes or
JSON, and :class:`Refused`, the error that becomes an HTTP status and one line.

Every route group of the studio (:mod:`polyforms.studio.app`,
:mod:`polyforms.studio.solid_api`) reads its requests here.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request

__all__ = ["MAX_BODY", "Refused", "read_body", "read_json"]

#: The largest request body read (a 100 x 100 board is about 130 KB).
MAX_BODY = 1 << 20


class Refused(Exception):
    """A request answered with ``status`` and the message as ``{"error": ...}``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


async def read_body(request: Request) -> bytes:
    """The request's bytes, read up to :data:`MAX_BODY` (also without a length)."""
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise Refused(413, f"the request is larger than {MAX_BODY >> 10} KiB")
        chunks.append(chunk)
    return b"".join(chunks)


async def read_json(request: Request) -> Any:
    """The request's JSON, read as :func:`read_body` reads it."""
    try:
        return json.loads(await read_body(request))
    except (ValueError, UnicodeDecodeError):
        raise Refused(400, "the request is not JSON") from None
