"""Offline sameness of two short mentions (EN + RU), for the resolution confirmation.

Words are reduced to crude stems, and words that product research uses interchangeably are
mapped to one concept ("lags", "freezes", "takes forever", "тормозит" → SLOW), so that
"the app lags on weak internet" and "the map freezes without signal" share SLOW and NETWORK.
Two mentions are the same when they share at least two concepts/stems and at least half of
the smaller one. This is deliberately conservative: a missed merge costs a duplicate node that
a person can merge; a wrong merge corrupts evidence.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"[\w-]+", re.UNICODE)

STOPWORDS = {
    "the",
    "a",
    "an",
    "of",
    "on",
    "in",
    "to",
    "and",
    "or",
    "is",
    "are",
    "was",
    "be",
    "with",
    "for",
    "at",
    "it",
    "its",
    "they",
    "them",
    "their",
    "we",
    "our",
    "from",
    "when",
    "that",
    "this",
    "there",
    "whenever",
    "very",
    "too",
    "so",
    "by",
    "as",
    "get",
    "gets",
    "still",
    "и",
    "в",
    "во",
    "на",
    "с",
    "со",
    "по",
    "для",
    "что",
    "это",
    "у",
    "из",
    "при",
    "их",
    "они",
    "мы",
    "наш",
    "когда",
    "как",
    "же",
    "бы",
    "то",
    "а",
    "но",
    "или",
    "уже",
    "очень",
    "все",
}

# Stem prefixes (lower-case) → concept. A word belongs to the first concept whose prefix it
# starts with. Kept to vocabulary that means the same thing in product feedback.
CONCEPTS: dict[str, tuple[str, ...]] = {
    "SLOW": (
        "slow",
        "lag",
        "laggy",
        "freez",
        "froze",
        "hang",
        "hangs",
        "stuck",
        "forever",
        "ages",
        "sluggish",
        "delay",
        "тормоз",
        "медлен",
        "завис",
        "долго",
        "вечност",
        "подвиса",
    ),
    "NETWORK": (
        "internet",
        "signal",
        "network",
        "connect",
        "3g",
        "4g",
        "lte",
        "wifi",
        "wi-fi",
        "offline",
        "coverage",
        "reception",
        "интернет",
        "связ",
        "сеть",
        "сети",
        "сигнал",
    ),
    "UNDERGROUND": (
        "basement",
        "garage",
        "tunnel",
        "underground",
        "подвал",
        "тоннел",
        "туннел",
        "гараж",
    ),
    "PHOTO": ("photo", "picture", "image", "фото", "снимк", "снимок", "картин"),
    "UPLOAD": ("upload", "sync", "загруз", "выгруз", "синхрон", "отправ"),
    "WRONG_ITEMS": ("mix", "mixed", "wrong", "confus", "путают", "путаниц", "перепут", "ошибоч"),
    "PRICE": ("price", "pricing", "cost", "expensive", "цен", "стоимост", "дорог"),
    "LATE": ("late", "overdue", "опазд", "опозд", "задерж", "просроч"),
    "NAVIGATION": ("map", "gps", "navigat", "route", "карт", "навигац", "маршрут"),
    "CRASH": ("crash", "bug", "error", "падает", "вылет", "сбо", "ошибк"),
    "REPORT": ("report", "paperwork", "отчет", "отчёт", "акт"),
    "MANUAL": ("manual", "hand", "paper", "вручную", "руками", "бумаж"),
    "SUPPLIER": ("supplier", "vendor", "поставщик"),
    "DELIVERY": ("deliver", "shipment", "привоз", "привез", "достав", "поставк"),
}

_RU_NOT_THE = re.compile(r"\bне\s+(?:те|то|ту|тот|та)\b", re.IGNORECASE)


def concepts(text: str) -> set[str]:
    lowered = _RU_NOT_THE.sub(" перепут ", text.lower())  # "не те позиции" = wrong items
    found: set[str] = set()
    for word in _WORD.findall(lowered):
        if word in STOPWORDS or len(word) < 2:
            continue
        concept = next((name for name, stems in CONCEPTS.items() if word.startswith(stems)), None)
        found.add(concept or word[:5])
    return found


def same_thing(a: str, b: str) -> tuple[bool, float]:
    """(same, overlap) for two short mentions."""
    left, right = concepts(a), concepts(b)
    if not left or not right:
        return False, 0.0
    shared = left & right
    overlap = len(shared) / min(len(left), len(right))
    return len(shared) >= 2 and overlap >= 0.5, overlap
