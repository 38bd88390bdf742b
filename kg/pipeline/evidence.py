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
# Grouped thousands ("1,200", "1 200", "1.200.000") or a plain number with an optional decimal
# part ("2.5", "2,5"). A separator followed by exactly three digits is a thousands separator.
_NUMBER = re.compile(r"\d{1,3}(?:[,.\u00a0\u202f ]\d{3})+(?![\d])|\d+(?:[.,]\d+)?")
_GROUP_SEPARATORS = re.compile(r"[,.\u00a0\u202f ]")


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


def _canonical(number: str) -> str:
    parts = _GROUP_SEPARATORS.split(number)
    grouped = len(parts) > 1 and all(len(p) == 3 for p in parts[1:])
    if grouped and (len(parts) > 2 or not re.search(r"[.]", number)):
        return "".join(parts)  # 1,200 / 1 200 / 1.200.000 → thousands
    return number.replace(",", ".")  # 2,5 → decimal comma; 1.200 stays a decimal


def numbers_in(text: str) -> list[str]:
    """Numbers in canonical form: thousands separators dropped, decimal comma as a dot."""
    return [_canonical(n) for n in _NUMBER.findall(text)]


def numbers_missing(claimed: str, quote: str) -> list[str]:
    """Numbers in `claimed` that do not appear in `quote` (2.5 is not 25; 1,200 is 1200)."""
    present = set(numbers_in(quote))
    return [n for n in numbers_in(claimed) if n not in present]
