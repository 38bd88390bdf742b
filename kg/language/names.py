"""The meaning of a node's names (its label and aliases) as one vector, and how close two
nodes' names are.

A node is known by its label and the aliases people and merges gave it; a mention is the
node when it means what any of those names means. So:
- the vector kept for a node (the vector index's entry) is the normalised mean of its names'
  vectors, at most MAX_NAMES of them (the label first): one entry finds the node by any name;
- a comparison takes the best cosine of the mention against each name apart, so a long alias
  list does not dilute the one name it matches.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np

from kg.language.encoder import ENCODER, as_list, encode

MAX_NAMES = 8


def names_key(names: Sequence[str]) -> str:
    """What a stored vector was computed from: the encoder and the names, as a short hash."""
    text = "\x1f".join([ENCODER, *(" ".join(n.split()) for n in names[:MAX_NAMES])])
    return hashlib.blake2b(text.encode("utf-8"), digest_size=12).hexdigest()


def names_vectors(nodes_names: Sequence[Sequence[str]]) -> list[list[float]]:
    """One unit vector per node: the normalised mean of its names' vectors, rounded."""
    flat = [name for names in nodes_names for name in names[:MAX_NAMES]]
    vectors = encode(flat)
    out = []
    start = 0
    for names in nodes_names:
        count = len(names[:MAX_NAMES])
        mean = vectors[start : start + count].mean(axis=0) if count else vectors[:0].sum(axis=0)
        start += count
        norm = float(np.linalg.norm(mean))
        out.append(as_list(mean / norm if norm else mean))
    return out


def closest_name(text: str, names: Sequence[str]) -> tuple[str, float]:
    """The name nearest to `text` in meaning, and its cosine."""
    if not names or not text.strip():
        return "", 0.0
    vectors = encode([text, *names[:MAX_NAMES]])
    scores = vectors[1:] @ vectors[0]
    best = int(scores.argmax())
    return names[best], float(scores[best])


def names_similarity(text: str, names: Sequence[str]) -> float:
    """The best cosine between `text` and any one of the names."""
    return closest_name(text, names)[1]
