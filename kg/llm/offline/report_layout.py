"""The layout of a bug report: which parts of an issue template state no problem.

An issue template puts the problem under «Фактическое поведение» or «Описание», and around it
sections that say what should have happened («Ожидаемое поведение»), how to get there («Шаги
для воспроизведения») and on what machine («Окружение», «Версия»). Only the layout tells them
apart: «Открывается встроенный терминал» under «Ожидаемое поведение» is no fault. Headings
are found by their form (a line of their own, a Markdown heading, bold, or a label before a
colon), never by the report's wording elsewhere. The headings are read in Russian and in
English: an English ticket ("Steps to reproduce", "Actual results") has the same sections, and
a Russian writer often fills in a template whose headings stay in English.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from kg.language.tokens import grammemes

Span = tuple[int, int]

# What the writer wanted to happen: the section states the right behaviour, not the fault.
_EXPECTED = (
    r"ожидаем\w*(?:\s+(?:поведени\w*|результат\w*|работ\w*|вывод\w*))?|ожидани[еяй]|ожидал(?:ось|и|а)?"
    r"|что\s+(?:я\s+)?ожидал(?:ось|и|а)?|как\s+должно\s+(?:быть|работать)|правильное\s+поведение"
    r"|expected(?:\s+(?:behaviou?r|results?|outcome))?|what\s+did\s+you\s+expect(?:\s+to\s+happen)?"
)
# The machine and the versions: facts about where, not what goes wrong.
_ENVIRONMENT = (
    r"окружени\w*|сред[аы](?:\s+выполнения)?|верси[яи](?:\s+[\w.+-]+){0,2}"
    r"|ос|операционн\w+\s+систем\w*|систем[аы]|(?:сведения|информаци\w+)\s+о\s+систем\w*"
    r"|конфигураци\w*|платформ\w*|оборудовани\w*|железо|характеристик\w*(?:\s+\w+)?"
    r"|environment|os|system\s+info(?:rmation)?|(?:vs\s*code|os)\s+version|versions?"
    r"|user\s*agent|build\s*(?:id|name|naam)?|platform"
)
# The class of problem picked from a form's list ("Problem type: Site is not usable", "Issue Type:
# Bug"): a category, not the symptom the writer saw.
_CATEGORY = r"(?:problem|issue|bug)\s+type|тип\s+(?:проблемы|ошибки|обращения)|категори[яи]"
# How to reproduce: the steps are instructions; a segment's role word in them («Пользователь
# открывает файл») is the template's actor, not a group of people.
_STEPS = (
    r"шаг(?:и|ов)?(?:\s+(?:для|по)\s+воспроизведени\w*|\s+воспроизведени\w*)?"
    r"|как\s+(?:воспроизвести|повторить)|порядок\s+действий|воспроизведени\w*"
    r"|steps(?:\s+to\s+reproduce)?|(?:reproduction|repro)\s+steps|how\s+to\s+reproduce"
)
# What happens instead: by the template's own definition the section states the fault.
_ACTUAL = (
    r"фактическ\w+(?:\s+(?:поведени\w*|результат\w*))?|на\s+(?:деле|самом\s+деле|практике)"
    r"|реальн\w+\s+(?:поведени\w*|результат\w*)|текущ\w+\s+поведени\w*"
    r"|что\s+(?:происходит|случилось|произошло)"
    r"|actual(?:\s+(?:behaviou?r|results?))?|what\s+happen(?:ed|s)|current\s+behaviou?r"
)
# Sections whose text is the report itself: only the heading goes.
_TOLD = (
    r"результат|описани\w*(?:\s+(?:ошибки|проблемы|бага))?"
    r"|проблема|суть\s+проблемы|подробност\w*|дополнительн\w+\s+(?:информаци\w*|контекст\w*|сведения)"
    r"|скриншот\w*|снимк\w+\s+экрана|логи|журнал\w*|примечани\w*|комментари\w*"
    r"|description|(?:bug\s+)?summary"
    r"|additional\s+(?:context|information|info)|screenshots?|logs?"
)
# What the writer does meanwhile: a way round the fault, not something asked of the project.
_WORKAROUND = (
    r"обходн\w+\s+(?:путь|решение|вариант)|временн\w+\s+(?:решение|выход)|как\s+обойти"
    r"|что\s+помогает|решение|workaround"
)
_KINDS = (
    ("expected", _EXPECTED),
    ("environment", _ENVIRONMENT),
    ("category", _CATEGORY),
    ("steps", _STEPS),
    ("workaround", _WORKAROUND),
    ("actual", _ACTUAL),
    ("told", _TOLD),
)
_SKIPPED = frozenset({"expected", "environment", "category"})

# A heading alone on its line: "### Окружение", "**Шаги для воспроизведения:**", "Версия:", and
# inside a quoted block ("> **Steps to Reproduce**:").
# The name starts and ends on a visible character, and each run of spaces can be read one way
# only: a line of blanked markup (hundreds of spaces) is then rejected in linear time, not
# after trying every way of sharing its spaces among the optional parts.
_HEADING_LINE = re.compile(
    r"^[ \t]*(?:>[ \t]*)*(?:#{1,6}[ \t]*)?(?:(?:\*\*|__)[ \t]*)?"
    r"(?P<name>[^\s:*#_][^\n:*#_]{0,58}?[^\s:*#_])(?:[ \t]|\*\*|__|:)*$",
    re.MULTILINE,
)
# A label before a colon with its text after it: "**Ожидаемый результат:** отладчик запускается",
# at a line's start or after a sentence's end on the line.
_INLINE_LABEL = re.compile(
    r"(?:^[ \t]*(?:>[ \t]*)*(?:[-*•][ \t]+)?(?:#{1,6}[ \t]*)?|(?<=[.!?])[ \t]+)(?:\*\*|__)?"
    r"(?P<name>[А-ЯЁа-яёA-Za-z][^\n:*_.!?]{0,39}?[^\s:*_.!?])[ \t]*(?:(?:\*\*|__)[ \t]*)?:"
    r"[ \t]*(?:(?:\*\*|__)[ \t]*)?(?=\S)",
    re.MULTILINE,
)
# A template's check box ("- [x] Я проверил …"): the writer confirms a step of the form.
_CHECKBOX = re.compile(r"^[ \t]*[-*][ \t]+\[[ xX]\][^\n]*$", re.MULTILINE)
# A line a program wrote to its log or console, pasted into the report: it opens on a bracketed
# level ("[Error - 10:15:32] …", "[warning] …"), a time of day ("10:15:32.120 …", "[10:15:32]
# …") or an absolute path (a program that names itself by its path: "C:\Python\python.exe:
# can't open file …", "/usr/bin/node: …"). What the program wrote is the machine's, not the
# writer's statement of the problem.
_LOG_LINE = re.compile(
    r"^[ \t]*(?:\[(?:error|err|warn|warning|info|debug|trace|fatal|critical)\b[^\]\n]*\]"
    r"|\[?\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\]?[ \t]|[A-Za-z]:[\\/]|/[\w.-]+/)[^\n]*$",
    re.MULTILINE | re.IGNORECASE,
)
# A form field with a short machine value that holds a number ("Commit: 5c3e6…", "Процессор:
# Intel i5").
_FIELD = re.compile(
    r"^[ \t]*(?:[-*•][ \t]+)?(?P<name>[^\n:.!?]{1,30}):[ \t]*(?P<value>[^\n]{1,60})$",
    re.MULTILINE,
)
_MESSAGE_LABELS = re.compile(r"(?:ошибк|сообщени|исключени|error|message|exception)", re.I)
_BLANK_LINE = re.compile(r"\n[ \t]*\n")


@dataclass(frozen=True)
class Section:
    kind: str
    heading: Span
    body: Span


def _kind(name: str) -> str | None:
    name = " ".join(name.split()).strip(" -–—").lower()
    for kind, pattern in _KINDS:
        if re.fullmatch(pattern, name):
            return kind
    return None


@lru_cache(maxsize=64)
def sections(text: str) -> tuple[Section, ...]:
    """The template sections a report is laid out in, in order."""
    found: list[tuple[int, int, str, bool]] = []  # heading start, end, kind, on its own line
    for match in _HEADING_LINE.finditer(text):
        kind = _kind(match["name"])
        if kind is not None:
            found.append((match.start(), match.end(), kind, True))
    for match in _INLINE_LABEL.finditer(text):
        kind = _kind(match["name"])
        if kind is not None and not any(s <= match.start() < e for s, e, _, _ in found):
            found.append((match.start(), match.end(), kind, False))
    found.sort()
    result = []
    for index, (start, end, kind, own_line) in enumerate(found):
        following = found[index + 1][0] if index + 1 < len(found) else len(text)
        if own_line:
            # The section's text runs to the next heading or to the first blank line after it.
            body_start = len(text) - len(text[end:].lstrip())
            gap = _BLANK_LINE.search(text, body_start, following)
            body_end = gap.start() if gap else following
        else:
            line_end = text.find("\n", end)
            body_end = min(following, len(text) if line_end < 0 else line_end)
        result.append(Section(kind, (start, end), (end, max(end, body_end))))
    return tuple(result)


def _blank(text: str, start: int, end: int) -> str:
    return text[:start] + re.sub(r"[^\n]", " ", text[start:end]) + text[end:]


def mask_layout(text: str, raw: str | None = None) -> str:
    """The report with its template's words blanked out, every other character where it was:
    headings, what was expected, the environment, check boxes, log lines and form fields with
    numbers. Log lines are found in `raw`, the text as written at the same offsets, when
    given: markup already blanked (a path that opens a program's line) no longer shows them."""
    for section in sections(text):
        if section.kind == "workaround":
            continue  # «Обходной путь: …» is how the rules tell an alternative the writer uses
        text = _blank(text, *section.heading)
        if section.kind in _SKIPPED:
            text = _blank(text, *section.body)
    for match in _CHECKBOX.finditer(text):
        text = _blank(text, *match.span())
    for match in _LOG_LINE.finditer(raw if raw is not None and len(raw) == len(text) else text):
        text = _blank(text, *match.span())
    for match in _FIELD.finditer(text):
        name, value = match["name"], match["value"]
        if (
            len(name.split()) <= 4
            and re.search(r"\d", value)
            and not re.search(r"[А-Яа-яЁё]", value)  # «Решили: переходим на B2C» is a statement
            and len(value.split()) <= 8
            and not _MESSAGE_LABELS.search(name)
        ):
            text = _blank(text, *match.span())
    return text


def steps(text: str) -> list[Span]:
    """Where the report's reproduction steps are: under a heading, or a list of at least two
    items that each open on what to do («1. Открыть файл», «- нажмите F5»), which is steps by
    its form alone."""
    found = [s.body for s in sections(text) if s.kind == "steps"]
    run: list[Span] = []
    for line in _LIST_LINE.finditer(text):
        word = re.match(r"[А-Яа-яЁё-]+", line["first"])
        if word is not None and grammemes(word.group()) & {"INFN", "impr"}:
            if run and text[run[-1][1] : line.start()].strip():
                run = []  # other text between: a new list
            run.append(line.span())
            if len(run) == 2:
                found.append((run[0][0], run[-1][1]))
            elif len(run) > 2:
                found[-1] = (run[0][0], run[-1][1])
        else:
            run = []
    return found


_LIST_LINE = re.compile(r"^[ \t]*(?:\d{1,2}[.)]|[-*•])[ \t]+(?P<first>[^\n]*)$", re.MULTILINE)


# A step's line opens on what to do («1. Запустить задачу, которая не существует»); what
# happens then is said after a dash or an arrow («3. Нажать F5 — ничего не происходит»).
_LIST_MARK = re.compile(r"[ \t]*(?:\d{1,2}[.)]|[-*•])?[ \t]*")
_RESULT_MARK = re.compile(r"\s(?:—|–|-|->|→|=>)\s|:\s")


def in_a_step_to_do(text: str, steps_at: list[Span], at: int) -> bool:
    """The words at `at` are in a reproduction step that tells what to do (its line opens on an
    infinitive or an imperative), before any result the line goes on to give."""
    if not any(start <= at < end for start, end in steps_at):
        return False
    line_start = text.rfind("\n", 0, at) + 1
    if _RESULT_MARK.search(text, line_start, at):
        return False
    opening = text[line_start + len(_LIST_MARK.match(text, line_start)[0]) :]
    if _AN_ORDER_EN.match(opening):
        return True
    first = re.match(r"[А-Яа-яЁё-]+", opening)
    return first is not None and bool(grammemes(first.group()) & {"INFN", "impr"})


# The verbs an English reproduction step opens on, said as an order: "Open the settings",
# "Visit the dashboard", "Right-click the tab".
_AN_ORDER_EN = re.compile(
    r"(?:open|visit|click|right-click|double-click|go|navigate|browse|type|enter|press|tap"
    r"|select|choose|start|launch|run|restart|install|load|reload|refresh|scroll|drag|hover"
    r"|move|log|sign|create|add|remove|delete|close|save|send|set|change|enable|disable|check"
    r"|uncheck|wait|switch|use|copy|paste|search|view|compose|reply|forward|print|download"
    r"|upload|make|put|insert|attach|import|export)\s",
    re.IGNORECASE,
)


# The sections only a report's template has: a text laid out in them is a ticket, not notes.
_REPORT_KINDS = frozenset({"steps", "expected", "actual", "environment", "category"})


def is_a_report(text: str) -> bool:
    """The text is laid out as a bug report (steps, expected and actual behaviour, environment),
    where a part of the product is named as what is broken, not as a capability asked for."""
    return any(s.kind in _REPORT_KINDS for s in sections(text))


def actual_behaviour(text: str) -> list[Span]:
    """Where the report tells what happens instead («Фактическое поведение», "Actual results")."""
    return [s.body for s in sections(text) if s.kind == "actual"]


def expected_behaviour(text: str) -> list[Span]:
    """Where the report tells what should have happened ("Expected results", «Ожидаемое
    поведение»): no fault and no feature, but it may name a product where it does happen."""
    return [s.body for s in sections(text) if s.kind == "expected"]


def workarounds(text: str) -> list[Span]:
    """Where the report tells how the writer gets round the fault."""
    return [s.body for s in sections(text) if s.kind == "workaround"]
