"""A destructive action asks first: the service raises ConfirmationNeeded, saying what would
happen, until the request says it was confirmed. A page answers with a confirmation page
whose form sends the same request again, confirmed (kg.web.confirm_page): no script needed."""

from __future__ import annotations


class ConfirmationNeeded(Exception):
    """Nothing was done: ask the person, then send the request again with `confirmed`."""

    def __init__(self, question: str, consequence: str = "", button: str = "Yes") -> None:
        super().__init__(question)
        self.question = question
        self.consequence = consequence
        self.button = button
