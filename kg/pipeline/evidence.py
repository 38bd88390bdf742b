"""Write-time checks on what a model says: quotes and numbers.

A quote is accepted only if it is in the episode after normalising whitespace and quote marks,
nothing else (case, words and punctuation must match). Offsets point into the original text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_QUOTE_MARKS = str.maketrans(
    {"“": '"', "”": '"', "„": '"', "«": '"', "»": '"', "‘": "'", "’": "'", "‚": "'", "`": "'"}
)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


@dataclass(frozen=True)
class Span:
    start: int
    end: int
    text: str  # the original words of the episode


def _normalised_with_map(text: str) -> tuple[str, list[int]]:
    """Collapse whitespace runs to one space and unify quote marks, keeping an index map."""
    out: list[str] = []
    index: list[int] = []
    previous_space = False
    for i, char in enumerate(text.translate(_QUOTE_MARKS)):
        if char.isspace():
            if previous_space:
                continue
            out.append(" ")
            previous_space = True
        else:
            out.append(char)
            previous_space = False
        index.append(i)
    return "".join(out), index


def normalise(text: str) -> str:
    return _normalised_with_map(text)[0].strip()


def locate_quote(quote: str, text: str) -> Span | None:
    """Where the quote stands in the text, or None when it is not there."""
    needle = normalise(quote)
    if not needle:
        return None
    haystack, index = _normalised_with_map(text)
    position = haystack.find(needle)
    if position < 0:
        return None
    start = index[position]
    end = index[position + len(needle) - 1] + 1
    return Span(start=start, end=end, text=text[start:end])


def numbers_in(text: str) -> list[str]:
    """Numbers as written, with thousands/decimal separators unified (1,5 == 1.5)."""
    return [n.replace(",", ".") for n in _NUMBER.findall(text)]


def numbers_missing(claimed: str, quote: str) -> list[str]:
    """Numbers in `claimed` that do not appear in `quote`."""
    present = set(numbers_in(quote))
    present |= {p.replace(".", "") for p in present}  # "1,200" written as "1200"
    return [
        n for n in numbers_in(claimed) if n not in present and n.replace(".", "") not in present
    ]
