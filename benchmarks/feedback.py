"""Varied product feedback for the write-path and PRD benchmarks, in English and Russian.

A year of a team's research names many people, many parts of a product, rival products and
problems, in many ways of saying them; a benchmark fed two templates grows a few hundred nodes
and hides what a growing graph costs. Here each message picks a role (120 per language: a trade
and what sets its people apart), a product part (120: a part and its kind), a brand (24
invented names), a problem (30) and one of 12 sentence frames, from a seeded generator: the same
seed gives the same messages. Russian frames keep every slot in the nominative (a label, a
colon, a dash) and a part's kind follows it as a phrase, so no word needs inflecting.

Run `python -m benchmarks.feedback [count]` to print a sample and the number of distinct
roles, parts and brands it named.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass

TRADES_EN = [
    "couriers", "florists", "bakers", "dispatchers", "pharmacists", "tutors", "cashiers",
    "electricians", "plumbers", "nurses", "drivers", "warehouse pickers", "barbers",
    "accountants", "teachers", "hotel clerks", "chefs", "waiters", "cleaners", "farmers",
]  # fmt: skip
KINDS_EN = [
    "new", "night-shift", "part-time", "senior", "rural", "freelance",
]  # fmt: skip
TRADES_RU = [
    "курьеры", "флористы", "пекари", "диспетчеры", "фармацевты", "репетиторы", "кассиры",
    "электрики", "сантехники", "медсёстры", "водители", "кладовщики", "барберы",
    "бухгалтеры", "учителя", "администраторы отелей", "повара", "официанты", "уборщики",
    "фермеры",
]  # fmt: skip
KINDS_RU = ["новые", "ночные", "временные", "опытные", "сельские", "внештатные"]

PARTS_EN = [
    "schedule", "invoice", "route", "order list", "map", "chat", "payment", "receipt",
    "calendar", "stock count", "timesheet", "price list", "delivery slot", "review page",
    "loyalty card", "booking form", "report", "notification", "login", "search",
    "export", "dashboard", "refund", "shift swap",
]  # fmt: skip
PART_KINDS_EN = ["mobile", "weekly", "shared", "offline", "printed"]
PARTS_RU = [
    "расписание", "счёт", "маршрут", "список заказов", "карта", "чат", "оплата", "чек",
    "календарь", "инвентаризация", "табель", "прайс-лист", "слот доставки", "страница отзывов",
    "карта лояльности", "форма записи", "отчёт", "уведомление", "вход", "поиск",
    "выгрузка", "панель", "возврат", "обмен сменами",
]  # fmt: skip
# Postpositive phrases: a Russian adjective would have to agree with each noun's gender.
PART_KINDS_RU = ["в приложении", "на сайте", "без сети", "на планшете", "для клиентов"]

BRANDS = [
    "Trellix", "Quarto", "Mapleway", "Brisk", "Fennel", "Osprey", "Lumen", "Kettle",
    "Parcelly", "Tidy", "Harbor", "Nimbus", "Rota", "Slate", "Vesta", "Ziply",
    "Corvid", "Ember", "Gusto", "Juniper", "Lark", "Mosaic", "Orbit", "Pivot",
]  # fmt: skip

PROBLEMS_EN = [
    "takes an hour every week", "loses entries overnight", "shows the wrong totals",
    "freezes on a weak signal", "needs three logins", "cannot be printed", "is only in English",
    "sends duplicate alerts", "drops half the orders", "is impossible to find",
    "resets after an update", "charges twice", "is slow at the end of the month",
    "hides the last column", "breaks on old phones", "forgets the chosen language",
    "cannot be shared", "shows yesterday's data", "needs a manager to approve",
    "crashes when a photo is attached", "counts breaks as work", "rounds prices wrong",
    "has no undo", "times out during lunch", "mixes up two branches", "spams the customers",
    "is blocked by the firewall", "logs everyone out", "misses the holidays",
    "is unreadable in sunlight",
]  # fmt: skip
PROBLEMS_RU = [
    "занимает час каждую неделю", "теряет записи за ночь", "показывает неверные суммы",
    "зависает при слабом сигнале", "требует трёх входов", "не печатается", "только на английском",
    "присылает дубли уведомлений", "теряет половину заказов", "невозможно найти",
    "сбрасывается после обновления", "списывает деньги дважды", "тормозит в конце месяца",
    "прячет последний столбец", "не работает на старых телефонах", "забывает выбранный язык",
    "нельзя отправить коллеге", "показывает вчерашние данные", "требует одобрения менеджера",
    "падает при загрузке фото", "считает перерывы работой", "неправильно округляет цены",
    "не даёт отменить действие", "отваливается в обед", "путает два филиала",
    "спамит клиентов", "блокируется файрволом", "выкидывает всех из системы",
    "не учитывает праздники", "нечитаемо на солнце",
]  # fmt: skip

FRAMES_EN = [
    "{Role} say the {part} {problem}.",
    "Interview {n}: one of our {role} told us the {part} {problem}.",
    "Most {role} switched from {brand} because its {part} {problem}.",
    "{Role} keep a paper copy since the {part} {problem}.",
    "A ticket from {role}: the {part} {problem}, again.",
    "We heard from {role} that the {part} {problem} and they compare us with {brand}.",
    "Survey note {n}: {role} rate the {part} low; it {problem}.",
    "{Role} would pay for a {part} that works; today it {problem}.",
    "Review: as one of the {role}, I find the {part} {problem}.",
    "In the {brand} pilot, {role} said the {part} {problem}.",
    "{Role} ask for a better {part}: it {problem}.",
    "Support call {n}: {role} report the {part} {problem} since Monday.",
]
FRAMES_RU = [
    "{Role}: {part} {problem}.",
    "Интервью {n}. Отвечают {role}: {part} {problem}.",
    "Ушли с {brand} — {role}; там {part} {problem}.",
    "Отзыв ({role}): {part} {problem}.",
    "Тикет {n} — {role}. {Part} {problem}.",
    "Заметка опроса {n}: {role} — {part} {problem}.",
    "{Role} сравнивают нас с {brand}: {part} {problem}.",
    "Звонок в поддержку {n}. {Role}: {part} {problem}.",
    "{Role} просят починить: {part} {problem}.",
    "Пилот {brand}. {Role}: {part} {problem}.",
]


@dataclass(frozen=True)
class Vocabulary:
    roles: list[str]
    parts: list[str]
    problems: list[str]
    frames: list[str]


def _combined(kinds: list[str], things: list[str], after: bool = False) -> list[str]:
    return [f"{thing} {kind}" if after else f"{kind} {thing}" for kind in kinds for thing in things]


VOCABULARIES = {
    "en": Vocabulary(
        roles=_combined(KINDS_EN, TRADES_EN),
        parts=_combined(PART_KINDS_EN, PARTS_EN),
        problems=PROBLEMS_EN,
        frames=FRAMES_EN,
    ),
    "ru": Vocabulary(
        roles=_combined(KINDS_RU, TRADES_RU),
        parts=_combined(PART_KINDS_RU, PARTS_RU, after=True),
        problems=PROBLEMS_RU,
        frames=FRAMES_RU,
    ),
}


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


def feedback(count: int, language: str = "en", seed: int = 11) -> Iterator[str]:
    """`count` messages of varied feedback in `language` ("en" or "ru"), seeded."""
    words = VOCABULARIES[language]
    rng = random.Random(f"{language}-{seed}")
    for n in range(1, count + 1):
        role, part = rng.choice(words.roles), rng.choice(words.parts)
        yield rng.choice(words.frames).format(
            role=role,
            Role=_capitalised(role),
            part=part,
            Part=_capitalised(part),
            problem=rng.choice(words.problems),
            brand=rng.choice(BRANDS),
            n=n,
        )


def mixed_feedback(count: int, russian_share: float = 0.25, seed: int = 11) -> list[str]:
    """Both languages in one project, as an organization's research arrives."""
    rng = random.Random(seed)
    english, russian = feedback(count, "en", seed), feedback(count, "ru", seed)
    return [next(russian) if rng.random() < russian_share else next(english) for _ in range(count)]


if __name__ == "__main__":
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 12
    for line in mixed_feedback(size):
        print(line)
    for language, words in VOCABULARIES.items():
        print(
            language,
            {
                "roles": len(words.roles),
                "parts": len(words.parts),
                "problems": len(words.problems),
                "frames": len(words.frames),
                "brands": len(BRANDS),
            },
        )
