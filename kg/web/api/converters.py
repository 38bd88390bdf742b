"""Path converters shared by the API and the pages.

Django's `int` accepts any number of digits, and a 30-digit number overflows SQLite and the
Bolt protocol (a 500 instead of a 404); numbers here have at most nine digits.
"""

from __future__ import annotations

from django.urls import register_converter


class NumberConverter:
    regex = "[0-9]{1,9}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


# Imported by every urls module that uses <num:...>; a module runs once, so this registers once.
register_converter(NumberConverter, "num")
