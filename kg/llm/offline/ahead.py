"""Answers of the offline rules made ahead of time, in another process.

The rules' answer for a message depends on its text, language and product only: they read no
known node and no state of the project. So a worker that waits for its project's import turn
can compute the answers of the messages the turn's holder is about to reach, on the other
core, and the holder finds them instead of computing them again (kg.pipeline.read_ahead keeps
them in Redis for a few minutes). An answer is found by a digest of those three inputs and of
the rules themselves (their source and the versions of the language libraries they read
with), so an answer made by other rules is never found.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from importlib import metadata
from pathlib import Path

from kg.llm.prompts.extraction_models import ExtractionRequest, ExtractionResponse

_LIBRARIES = (
    "textblob", "pymorphy3", "pymorphy3-dicts-ru", "vaderSentiment", "natasha", "navec", "razdel",
    "slovnet",
)  # fmt: skip
_SOURCES = (Path(__file__).parent, Path(__file__).parent.parent.parent / "language")

_given: ContextVar[Mapping[str, ExtractionResponse] | None] = ContextVar(
    "offline_answers_given", default=None
)


@cache
def rules_version() -> str:
    """A digest of the rules' code and the language libraries' versions."""
    digest = hashlib.sha256()
    for folder in _SOURCES:
        for path in sorted(folder.glob("*.py")):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    for name in _LIBRARIES:
        try:
            digest.update(f"{name}={metadata.version(name)}".encode())
        except metadata.PackageNotFoundError:
            digest.update(f"{name}=absent".encode())
    return digest.hexdigest()[:16]


def answer_key(
    text: str, language: str, product: str, project_name: str = "", records: str = ""
) -> str:
    """What an answer made ahead is found by."""
    payload = "\x00".join(
        (rules_version(), language.lower(), product.strip(), project_name.strip(), records, text)
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


@contextmanager
def answers_given(answers: Mapping[str, ExtractionResponse]) -> Iterator[None]:
    """Within the block, `given_answer` finds these answers (by `answer_key`)."""
    token = _given.set(answers)
    try:
        yield
    finally:
        _given.reset(token)


def given_answer(request: ExtractionRequest) -> ExtractionResponse | None:
    answers = _given.get()
    if not answers:
        return None
    return answers.get(
        answer_key(
            request.text, request.language, request.product, request.project_name, request.records
        )
    )
