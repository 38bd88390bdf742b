"""Serializer fields for what people write through the API.

DRF's CharField turns a number into text ("0") and refuses NUL and blank text with messages
its schema does not announce; these fields accept exactly what the schema says: a JSON string
(not a number), without NUL characters, and for written text something besides spaces.
"""

from __future__ import annotations

from django.core.validators import RegexValidator
from rest_framework import serializers

# In the schema as `pattern` (drf-spectacular reads the RegexValidator). Linear to match: no
# nested repetition, so a long text cannot make it slow.
NO_NUL_PATTERN = r"^[^\x00]*$"
WRITTEN_TEXT_PATTERN = r"^\s*[^\s\x00][^\x00]*$"  # spaces around something else, no NUL


class StringField(serializers.CharField):
    """A JSON string without NUL: a number or a boolean is refused, not turned into text."""

    pattern = NO_NUL_PATTERN
    default_error_messages = {
        "not_a_string": "must be a string, not {kind}",
        "nul": "contains a NUL character at character {place}; remove it",
    }

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.validators.append(RegexValidator(self.pattern, message=self.error_messages["nul"]))

    def run_validation(self, data=serializers.empty):
        if data is not serializers.empty and data is not None and not isinstance(data, str):
            self.fail("not_a_string", kind=type(data).__name__)
        if isinstance(data, str) and "\x00" in data:  # said with its place, before the rest
            self.fail("nul", place=data.index("\x00") + 1)
        return super().run_validation(data)


class WrittenTextField(StringField):
    """Text a person wrote: something besides spaces, no NUL character (said where it is)."""

    pattern = WRITTEN_TEXT_PATTERN
    default_error_messages = {"blank": "is empty or only spaces; write something"}
