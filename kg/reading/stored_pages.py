"""A list the graph pages: what Django's Paginator (and so DRF's page pagination) reads as its
object list, asking the store for the one page shown and for the count, never for every row."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

Row = TypeVar("Row")


class StoredRows(Sequence, Generic[Row]):
    """`count()` and slices answered by the store: `count` says how many rows match, `page`
    reads (skip, limit) of them in the store's order. Each is read at most once per slice."""

    def __init__(self, count: Callable[[], int], page: Callable[[int, int], list[Row]]) -> None:
        self._count = count
        self._page = page
        self._counted: int | None = None

    def count(self) -> int:  # type: ignore[override]  (Paginator asks for count() first)
        if self._counted is None:
            self._counted = self._count()
        return self._counted

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, index):
        if isinstance(index, slice):
            if index.step not in (None, 1):
                raise ValueError("a stored page is read in order, without a step")
            start, stop, _ = index.indices(self.count())
            return self._page(start, stop - start) if stop > start else []
        if index < 0:
            index += self.count()
        rows = self._page(index, 1) if index >= 0 else []
        if not rows:
            raise IndexError(index)
        return rows[0]


def no_rows() -> StoredRows:
    """A list that matches nothing (filters that contradict each other)."""
    return StoredRows(lambda: 0, lambda skip, limit: [])
