"""Write-time checks on what a model says: quotes and numbers.

A quote is accepted only if it is in the episode, as whole words, after normalising whitespace
and quote marks, nothing else (case, words and punctuation must match). Offsets point into the
original text. Whether the quote says what it is cited for is kg.pipeline.grounding's check.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache

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


_WHITESPACE_RUN = re.compile(r"\s+")
# What normalising changes besides quote marks: whitespace other than a single space.
_ODD_WHITESPACE = re.compile(r"[^\S ]| {2,}")


@lru_cache(maxsize=64)  # every quote of a message is checked against the same text
def _normalised_with_map(text: str) -> tuple[str, Sequence[int]]:
    """Collapse whitespace runs to one space and unify quote marks, keeping an index map."""
    translated = text.translate(_QUOTE_MARKS)  # one character for one: offsets kept
    if not _ODD_WHITESPACE.search(translated):  # most texts: nothing moves
        return translated, range(len(translated))
    out: list[str] = []
    index: list[int] = []
    previous_space = False
    for i, char in enumerate(translated):
        if char.isspace():
            if previous_space:
                continue
            out.append(" ")
            previous_space = True
        else:
            out.append(char)
            previous_space = False
        index.append(i)
    return "".join(out), tuple(index)


def normalise(text: str) -> str:
    return _WHITESPACE_RUN.sub(" ", text.translate(_QUOTE_MARKS)).strip()


def _is_word_char(char: str) -> bool:
    return char.isalnum()


def _on_word_boundaries(haystack: str, position: int, needle: str) -> bool:
    """A quote that starts or ends with a letter starts or ends a word ("e" is not in "the")."""
    after = position + len(needle)
    if _is_word_char(needle[0]) and position > 0 and _is_word_char(haystack[position - 1]):
        return False
    return not (
        _is_word_char(needle[-1]) and after < len(haystack) and _is_word_char(haystack[after])
    )


def locate_quote(quote: str, text: str) -> Span | None:
    """Where the quote stands in the text as whole words, or None when it is not there."""
    needle = normalise(quote)
    if not needle:
        return None
    haystack, index = _normalised_with_map(text)
    position = haystack.find(needle)
    while position >= 0 and not _on_word_boundaries(haystack, position, needle):
        position = haystack.find(needle, position + 1)
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


# A quantity is a number with its scale ("3M", "3 тыс.") and unit ("%", "$", "days"), so that
# "$3M" is not "$3k" and "40%" is not "40 couriers".
_CURRENCY = {
    "$": "$", "usd": "$", "dollar": "$", "dollars": "$",
    "€": "€", "eur": "€", "euro": "€", "euros": "€",
    "£": "£", "gbp": "£", "pound": "£", "pounds": "£",
    "₽": "₽", "rub": "₽", "руб": "₽", "рубль": "₽", "рубля": "₽", "рублей": "₽",
}  # fmt: skip
_PERCENT = {"%", "percent", "per cent", "процент", "процента", "процентов"}
_MINUTES = {
    "minute": 1, "minutes": 1, "min": 1, "mins": 1, "минута": 1, "минуты": 1, "минут": 1,
    "hour": 60, "hours": 60, "h": 60, "час": 60, "часа": 60, "часов": 60,
    "day": 1440, "days": 1440, "день": 1440, "дня": 1440, "дней": 1440,
    "week": 10080, "weeks": 10080, "неделя": 10080, "недели": 10080, "недель": 10080,
}  # fmt: skip
_SCALES = {
    "k": 10**3, "thousand": 10**3, "thousands": 10**3,
    "тыс": 10**3, "тыс.": 10**3, "тысяча": 10**3, "тысячи": 10**3, "тысяч": 10**3,
    "m": 10**6, "mn": 10**6, "mln": 10**6, "million": 10**6, "millions": 10**6,
    "млн": 10**6, "млн.": 10**6, "миллион": 10**6, "миллиона": 10**6, "миллионов": 10**6,
    "b": 10**9, "bn": 10**9, "billion": 10**9, "billions": 10**9,
    "млрд": 10**9, "млрд.": 10**9, "миллиард": 10**9, "миллиарда": 10**9, "миллиардов": 10**9,
}  # fmt: skip


def _alternatives(words) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


_UNIT_WORDS = [*_CURRENCY, *_PERCENT, *_MINUTES]
_QUANTITY = re.compile(
    rf"(?P<prefix>[$€£₽])?\s?(?P<number>{_NUMBER.pattern})"
    rf"(?:\s?(?P<scale>{_alternatives(_SCALES)})(?![^\W\d_]))?"
    rf"(?:\s?(?P<unit>{_alternatives(_UNIT_WORDS)})(?![^\W\d_]))?",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Quantity:
    written: str  # the number as canonical digits, unscaled ("3", "1200", "2.5")
    value: Decimal  # scaled, durations in minutes
    unit: str  # "", "%", a currency sign, or "time"


def quantities_in(text: str) -> list[Quantity]:
    found = []
    for m in _QUANTITY.finditer(text):
        written = _canonical(m["number"])
        try:
            value = Decimal(written)
        except InvalidOperation:  # pragma: no cover - the pattern yields digits only
            continue
        scale = (m["scale"] or "").lower()
        value *= _SCALES.get(scale, 1)
        unit_word = (m["unit"] or "").lower()
        unit = ""
        if m["prefix"]:
            unit = _CURRENCY[m["prefix"]]
        if unit_word in _CURRENCY:
            unit = _CURRENCY[unit_word]
        elif unit_word in _PERCENT:
            unit = "%"
        elif unit_word in _MINUTES:
            unit, value = "time", value * _MINUTES[unit_word]
        found.append(Quantity(written=written, value=value.normalize(), unit=unit))
    return found


def quantity_matches(claimed: Quantity, quoted: Quantity) -> bool:
    """Same value at the same scale; a unit the claim names must be the quote's unit, and a
    percentage is never implicit (40% is not 40 couriers, nor 40 couriers 40%)."""
    if claimed.value != quoted.value:
        return False
    if claimed.unit:
        return claimed.unit == quoted.unit
    return quoted.unit != "%"


def quantities_missing(claimed: str, quotes: list[str]) -> list[Quantity]:
    """Quantities of `claimed` that no single quote states with the same value and unit."""
    quoted = [quantities_in(q) for q in quotes]
    return [
        q
        for q in quantities_in(claimed)
        if not any(quantity_matches(q, p) for qs in quoted for p in qs)
    ]


def numbers_missing(claimed: str, quote: str) -> list[str]:
    """Numbers in `claimed` that do not appear in `quote` with their scale and unit (2.5 is not
    25; 1,200 is 1200; $3M is not $3k; 40% is not 40 couriers)."""
    return [q.written for q in quantities_missing(claimed, [quote])]
