"""Typed reading of environment variables.

Every setting the product reads comes through here so that a bad value stops start-up with a
message naming the variable, instead of failing later somewhere far from the cause.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from urllib.parse import urlparse

from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off", ""}


def _raw(name: str) -> str | None:
    value = os.environ.get(name)
    return value.strip() if value is not None else None


def env_str(name: str, default: str) -> str:
    value = _raw(name)
    return default if value is None or value == "" else value


def env_bool(name: str, default: bool) -> bool:
    value = _raw(name)
    if value is None:
        return default
    lowered = value.lower()
    if lowered in TRUE_WORDS:
        return True
    if lowered in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(f"{name}={value!r} is not a boolean; use true or false.")


def env_int(name: str, default: int, *, minimum: int = 0, maximum: int = 65535) -> int:
    value = _raw(name)
    if value is None or value == "":
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not an integer.") from None
    if not minimum <= number <= maximum:
        raise ImproperlyConfigured(f"{name}={number} is outside {minimum}..{maximum}.")
    return number


def env_list(name: str, default: list[str]) -> list[str]:
    value = _raw(name)
    if value is None or value == "":
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def env_choice(name: str, default: str, choices: set[str]) -> str:
    value = env_str(name, default).lower()
    if value not in choices:
        allowed = ", ".join(sorted(choices))
        raise ImproperlyConfigured(f"{name}={value!r} is not one of: {allowed}.")
    return value


def env_url(name: str, default: str, schemes: set[str]) -> str:
    value = env_str(name, default)
    parsed = urlparse(value)
    if parsed.scheme not in schemes:
        allowed = ", ".join(sorted(schemes))
        raise ImproperlyConfigured(f"{name}={value!r} must be a URL with scheme {allowed}.")
    if parsed.scheme not in {"sqlite"} and not parsed.hostname:
        raise ImproperlyConfigured(f"{name}={value!r} has no host.")
    return value


def checked(name: str, value: str, check: Callable[[str], object]) -> str:
    """Run a parser over a value and report its failure under the variable's name."""
    try:
        check(value)
    except Exception as exc:  # the parser's own message is kept, the name is added
        raise ImproperlyConfigured(f"{name}={value!r} is invalid: {exc}") from None
    return value


# Passwords that ship in examples and images: as good as none on a server others can reach.
WELL_KNOWN_PASSWORDS = frozenset(
    {"groundwork", "groundwork-neo4j", "neo4j", "password", "postgres", "redis", "changeme"}
)


def missing_secrets(urls: dict[str, str], passwords: dict[str, str]) -> list[str]:
    """What a production start lacks: each named server URL (SQL, graph, Redis) must carry a
    password, each named password must be set, and none may be a well-known default. SQLite
    files and in-memory brokers have no server to protect and pass."""
    problems = []
    for name, url in urls.items():
        parsed = urlparse(url)
        if parsed.scheme in {"sqlite", "memory"} or not parsed.hostname:
            continue
        secret = parsed.password or ""
        if not secret:
            problems.append(f"{name} has no password")
        elif secret in WELL_KNOWN_PASSWORDS:
            problems.append(f"{name} uses the well-known password {secret!r}")
    for name, secret in passwords.items():
        if not secret:
            problems.append(f"{name} is not set")
        elif secret in WELL_KNOWN_PASSWORDS:
            problems.append(f"{name} is the well-known password {secret!r}")
    return problems
