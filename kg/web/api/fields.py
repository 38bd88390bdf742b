"""Serializer fields for what people write through the API.

DRF's CharField turns a number into text ("0") and refuses NUL and blank text with messages
its schema does not announce; its BooleanField takes 0, "yes" or "off", its IntegerField "12"
and 12.0. These fields accept exactly what the schema says: a JSON string (not a number)
without NUL characters, for written text something besides spaces, a JSON boolean, a JSON
integer.
"""

from __future__ import annotations

from django.core.validators import RegexValidator
from rest_framework import serializers

# In the schema as `pattern` (drf-spectacular reads the RegexValidator). Linear to match: no
# nested repetition, so a long text cannot make it slow.
NO_NUL_PATTERN = r"^[^\x00]*$"
# A blank-allowed field is documented as oneOf [its pattern, the empty string]: its pattern
# must not match "" too, or "" would match both branches and the oneOf neither.
NONEMPTY_NO_NUL_PATTERN = r"^[^\x00]+$"
# What str.strip() removes, spelled out: `\s` means another set in the schema's (ECMA) regexes
# (no U+0085 or U+001C-U+001F, but U+FEFF), so "\t\u0085" would match there and be blank here.
SPACES = r"\t\n\x0b\x0c\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
WRITTEN_TEXT_PATTERN = rf"^[{SPACES}]*[^{SPACES}\x00][^\x00]*$"  # spaces around something else


class StringField(serializers.CharField):
    """A JSON string without NUL: a number or a boolean is refused, not turned into text."""

    pattern = NO_NUL_PATTERN
    default_error_messages = {
        "not_a_string": "must be a string, not {kind}",
        "nul": "contains a NUL character at character {place}; remove it",
    }

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        pattern = self.pattern
        if self.allow_blank and pattern == NO_NUL_PATTERN:
            pattern = NONEMPTY_NO_NUL_PATTERN  # "" is allowed before validators run
        self.validators.append(RegexValidator(pattern, message=self.error_messages["nul"]))

    def run_validation(self, data=serializers.empty):
        if data is not serializers.empty and data is not None and not isinstance(data, str):
            self.fail("not_a_string", kind=type(data).__name__)
        if isinstance(data, str) and "\x00" in data:  # said with its place, before the rest
            self.fail("nul", place=data.index("\x00") + 1)
        if isinstance(data, str) and self.max_length is not None and len(data) > self.max_length:
            # The schema's maxLength counts what was sent, before spaces are trimmed.
            self.fail("max_length", max_length=self.max_length)
        return super().run_validation(data)


class WrittenTextField(StringField):
    """Text a person wrote: something besides spaces, no NUL character (said where it is)."""

    pattern = WRITTEN_TEXT_PATTERN
    default_error_messages = {"blank": "is empty or only spaces; write something"}


class StrictBooleanField(serializers.BooleanField):
    """true or false, as JSON: 0, "yes" or "off" is refused, not read as a boolean."""

    default_error_messages = {"invalid": "must be true or false, not {kind}"}

    def to_internal_value(self, data):
        if not isinstance(data, bool):
            self.fail("invalid", kind=type(data).__name__)
        return data


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer: "12", 12.0 or true is refused, not turned into a number."""

    default_error_messages = {"not_an_integer": "must be an integer, not {kind}"}

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("not_an_integer", kind=type(data).__name__)
        return super().to_internal_value(data)
