"""Paragraphs of a document grouped into quotable chunks, one source reference per chunk."""

from __future__ import annotations

from kg.ledger.episodes import EpisodeInput, EpisodeRejected, validate_episode_input
from kg.ledger.importing import split_at_sentences
from kg.ledger.sources.base import CHUNK_CHARS, SourceRead
from kg.models import EpisodeKind


class ChunkBuilder:
    """Collects paragraphs under one source reference (a page, a section on a page) and
    cuts a chunk when the reference changes or the chunk is full. Parts are numbered in
    file order, so two chunks of one section are told apart.

    A heading added as text (one that states a finding) is kept with the body under it; a
    chunk that would hold nothing but headings is not made: a title or a heading with no
    text of its own says nothing anyone said, and it already stands in the section path of
    the chunks that follow it."""

    def __init__(self, read: SourceRead, kind: str = EpisodeKind.FILE_CHUNK) -> None:
        self.read = read
        self.kind = kind
        self._ref: dict | None = None
        self._buffer: list[str] = []
        self._size = 0
        self._part = 0
        self._body = False  # the buffer holds more than headings

    def add(self, text: str, ref: dict, *, heading: bool = False) -> None:
        text = text.strip()
        if not text:
            return
        if ref != self._ref:
            self.flush()
            self._ref = ref
        self._buffer.append(text)
        self._size += len(text)
        self._body = self._body or not heading
        if self._size >= CHUNK_CHARS:
            self.flush()

    def flush(self) -> None:
        if not self._buffer or self._ref is None:
            return
        content = "\n\n".join(self._buffer)
        body, self._body = self._body, False
        self._buffer, self._size = [], 0
        if not body:
            return
        for piece in split_at_sentences(content, CHUNK_CHARS):
            self._part += 1
            item = EpisodeInput(
                content=piece, kind=self.kind, source_ref={**self._ref, "part": self._part}
            )
            try:
                validate_episode_input(item)
            except EpisodeRejected as exc:
                self.read.skipped.append(f"part {self._part}: {exc}")
                continue
            self.read.items.append(item)
