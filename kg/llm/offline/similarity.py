"""Offline sameness of two short mentions (EN + RU), for the resolution confirmation.

Words are reduced to crude stems, and words that product research uses interchangeably are
mapped to one concept ("lags", "freezes", "takes forever", "тормозит" → SLOW), so that
"the app lags on weak internet" and "the map freezes without signal" share SLOW and NETWORK.
Two mentions are the same when they share at least two concepts/stems and at least half of
the smaller one, or at least two of the named concepts and at least half of those the smaller
one has (long wordings of one problem add places and details that dilute plain overlap).
Besides, a one-word name is the same as that name with a word that only says whose or which
one it is: "владельцы" and "владельцы салонов", "owners" and "small shop owners", "таблицы"
and "Google Таблицы", "paper" and "paper notebooks" (see same_group).
This is deliberately conservative: a missed merge costs a duplicate node that a person can
merge; a wrong merge corrupts evidence.
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
        "gps",
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
    "NAVIGATION": ("map", "navigat", "route", "карт", "навигац", "маршрут"),
    "SCHEDULE": ("schedul", "calendar", "расписан", "календар"),
    "STOCK": ("stock", "inventor", "item", "sku", "остатк", "инвентар", "склад"),
    "SCATTERED": (
        "scatter",
        "fragment",
        "consolidat",
        "juggl",
        "разрознен",
        "разных",
        "разные",
        "разными",
        "сводит",
        "сводят",
        "сведение",
        "сведении",
    ),
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
    if same_group(a, b):
        return True, 1.0
    left, right = concepts(a), concepts(b)
    if not left or not right:
        return False, 0.0
    shared = left & right
    overlap = len(shared) / min(len(left), len(right))
    if len(shared) >= 2 and overlap >= 0.5:
        return True, overlap
    named = [left & CONCEPTS.keys(), right & CONCEPTS.keys()]
    if all(named) and len(shared & CONCEPTS.keys()) >= 2:
        named_overlap = len(shared & CONCEPTS.keys()) / min(len(n) for n in named)
        return named_overlap >= 0.5, named_overlap
    return False, overlap


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Words after a name that only say what it comes in ("WhatsApp groups", "paper notebooks").
CONTAINERS = _words(
    "group groups chat chats channel channels notebook notebooks note notes form forms sheet "
    "sheets list lists log logs journal journals"
)
# People named by what they belong to: bare, they mean the ones the project already knows.
RELATIONAL = _words(
    "owners parents administrators admins heads владельцы руководители родители "
    "администраторы управляющие сотрудники"
)
_CYRILLIC_WORD = re.compile(r"^[а-яё-]+$", re.IGNORECASE)


def same_group(a: str, b: str) -> bool:
    """A one-word name and the same name narrowed by whose or which it is.

    "салоны" / "салоны красоты" and "родители" / "родители учеников" (a Russian genitive after
    the head), "owners" / "small shop owners" (a bare relational noun), "таблицы" / "Google
    Таблицы" (a brand before a common noun), "paper" / "paper notebooks" (a container after).
    An adjective in front does not count: "couriers" and "independent couriers" stay apart.
    """
    short, long = sorted((a.split(), b.split()), key=len)
    if len(short) != 1 or len(long) < 2:
        return False
    word, lowered = short[0].lower(), [w.lower() for w in long]
    if len(word) < 4 or word not in lowered:
        return False
    if lowered[0] == word and len(long) == 2:
        if _CYRILLIC_WORD.match(word) and _CYRILLIC_WORD.match(lowered[1]):
            return True
        return lowered[1] in CONTAINERS
    if lowered[-1] != word:
        return False
    if word in RELATIONAL and len(long) <= 4:
        return True
    return len(long) == 2 and long[0][:1].isupper() and not short[0][:1].isupper()
