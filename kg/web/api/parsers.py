"""Request parsers of the API: DRF's, with two guards.

JSON nested deeper than MAX_JSON_DEPTH is refused 400: Python's decoder recurses once per
level, so 100,000 opening brackets would otherwise end in a RecursionError (a 500). A body over
DATA_UPLOAD_MAX_MEMORY_SIZE is refused 413 by the exception handler (kg.web.api.exceptions),
whichever parser reads it.

A multipart body must begin with its boundary. Django's multipart parser skips whatever comes
before the first boundary (a "preamble"), so a garbage body read as an empty form: POST with
nothing, answered 201/202 as if no field had been sent. No client sends a preamble; such a
body is refused 400.
"""

from __future__ import annotations

import io

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser, MultiPartParser

MAX_JSON_DEPTH = 64  # the deepest body the API takes has a handful of levels


class BoundedJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:  # the decoder gave up on the nesting before the check below
            raise ParseError(
                f"JSON parse error - nested deeper than {MAX_JSON_DEPTH} levels"
            ) from None
        if json_depth(data) > MAX_JSON_DEPTH:
            raise ParseError(f"JSON parse error - nested deeper than {MAX_JSON_DEPTH} levels")
        return data


def json_depth(value: object) -> int:
    """How deep arrays and objects nest in a decoded JSON value (a scalar is 0); iterative, so
    any depth is measured without recursion."""
    deepest, pending = 0, [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        pending.extend((child, depth + 1) for child in children)
    return deepest


class StrictMultiPartParser(MultiPartParser):
    def parse(self, stream, media_type=None, parser_context=None):
        request = parser_context["request"]
        boundary = _boundary(media_type or "")
        if stream is not None and boundary:
            head = stream.read(len(boundary) + 2)
            if head and head != b"--" + boundary:
                raise ParseError("the multipart body does not begin with its boundary")
            stream = _Prefixed(head, stream)
            request._stream = stream
        return super().parse(stream, media_type, parser_context)


def _boundary(media_type: str) -> bytes:
    for part in media_type.split(";")[1:]:
        name, _, value = part.strip().partition("=")
        if name.lower() == "boundary":
            return value.strip('"').encode("latin-1", "replace")
    return b""


class _Prefixed(io.RawIOBase):
    """The bytes already read, then the rest of the stream."""

    def __init__(self, head: bytes, rest) -> None:
        self._head, self._rest = head, rest

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        if self._head:
            if size is None or size < 0:
                data, self._head = self._head + self._rest.read(), b""
                return data
            data, self._head = self._head[:size], self._head[size:]
            return data
        return self._rest.read(size)

    def readinto(self, buffer) -> int:
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)
