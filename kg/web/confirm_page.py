"""The confirmation page of a destructive action (kg.confirmation): the question, what it
does, and a form that posts the same fields again with `confirmed=yes`, or a way back."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from kg.confirmation import ConfirmationNeeded

CONFIRMED = "confirmed"
NOT_SENT_AGAIN = ("csrfmiddlewaretoken", CONFIRMED)


def is_confirmed(request: HttpRequest) -> bool:
    return request.POST.get(CONFIRMED) == "yes"


def confirmation_page(request: HttpRequest, needed: ConfirmationNeeded, back: str) -> HttpResponse:
    fields = [
        (name, value)
        for name, values in request.POST.lists()
        if name not in NOT_SENT_AGAIN
        for value in values
    ]
    context = {
        "question": needed.question,
        "consequence": needed.consequence,
        "button": needed.button,
        "action_url": request.path,
        "fields": fields,
        "back": back,
    }
    return render(request, "groundwork/confirm.html", context)
