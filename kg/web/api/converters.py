"""Path converters shared by the API and the pages.

A project is named in a path by its slug, unique within its organization; `<org>~<slug>` names
it with its organization, for a member of several organizations that each have that slug
(kg.tenancy.project_for_user resolves either among the user's own projects).

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


class ProjectConverter:
    regex = "[-a-zA-Z0-9_]+(?:~[-a-zA-Z0-9_]+)?"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return str(value)


# Imported by every urls module that uses <num:...> or <project:...>; a module runs once, so
# these register once.
register_converter(NumberConverter, "num")
register_converter(ProjectConverter, "project")
