"""The layout of a Russian bug report: which parts of an issue template state no problem.

An issue template puts the problem under «Фактическое поведение» or «Описание», and around it
sections that say what should have happened («Ожидаемое поведение»), how to get there («Шаги
для воспроизведения») and on what machine («Окружение», «Версия»). Only the layout tells them
apart: «Открывается встроенный терминал» under «Ожидаемое поведение» is no fault. Headings
are found by their form (a line of their own, a Markdown heading, bold, or a label before a
colon), never by the report's wording elsewhere. A Russian writer often fills in a template
whose headings stay in English («Steps to Reproduce:» above Russian steps): those headings are
the same sections.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from kg.language import is_cyrillic
from kg.language.tokens import analyse, cases, grammemes
from kg.llm.offline import linguistic

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
)
# How to reproduce: the steps are instructions; a segment's role word in them («Пользователь
# открывает файл») is the template's actor, not a group of people.
_STEPS = (
    r"шаг(?:и|ов)?(?:\s+(?:для|по)\s+воспроизведени\w*|\s+воспроизведени\w*)?"
    r"|как\s+(?:воспроизвести|повторить)|порядок\s+действий|воспроизведени\w*"
    r"|steps(?:\s+to\s+reproduce)?|(?:reproduction|repro)\s+steps|how\s+to\s+reproduce"
)
# Sections whose text is the report itself: only the heading goes.
_TOLD = (
    r"фактическ\w+(?:\s+(?:поведени\w*|результат\w*))?|на\s+(?:деле|самом\s+деле|практике)"
    r"|реальн\w+\s+(?:поведени\w*|результат\w*)|текущ\w+\s+поведени\w*|результат"
    r"|что\s+(?:происходит|случилось|произошло)|описани\w*(?:\s+(?:ошибки|проблемы|бага))?"
    r"|проблема|суть\s+проблемы|подробност\w*|дополнительн\w+\s+(?:информаци\w*|контекст\w*|сведения)"
    r"|скриншот\w*|снимк\w+\s+экрана|логи|журнал\w*|примечани\w*|комментари\w*"
    r"|actual(?:\s+(?:behaviou?r|results?))?|description|(?:bug\s+)?summary|what\s+happened"
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
    ("steps", _STEPS),
    ("workaround", _WORKAROUND),
    ("told", _TOLD),
)
_SKIPPED = frozenset({"expected", "environment"})

# A heading alone on its line: "### Окружение", "**Шаги для воспроизведения:**", "Версия:".
# The name starts and ends on a visible character, and each run of spaces can be read one way
# only: a line of blanked markup (hundreds of spaces) is then rejected in linear time, not
# after trying every way of sharing its spaces among the optional parts.
_HEADING_LINE = re.compile(
    r"^[ \t]*(?:#{1,6}[ \t]*)?(?:(?:\*\*|__)[ \t]*)?"
    r"(?P<name>[^\s:*#_][^\n:*#_]{0,58}?[^\s:*#_])(?:[ \t]|\*\*|__|:)*$",
    re.MULTILINE,
)
# A label before a colon with its text after it: "**Ожидаемый результат:** отладчик запускается",
# at a line's start or after a sentence's end on the line.
_INLINE_LABEL = re.compile(
    r"(?:^[ \t]*(?:[-*•][ \t]+)?(?:#{1,6}[ \t]*)?|(?<=[.!?])[ \t]+)(?:\*\*|__)?"
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
    first = re.match(
        r"[А-Яа-яЁё-]+", text[line_start + len(_LIST_MARK.match(text, line_start)[0]) :]
    )
    return first is not None and bool(grammemes(first.group()) & {"INFN", "impr"})


def workarounds(text: str) -> list[Span]:
    """Where the report tells how the writer gets round the fault."""
    return [s.body for s in sections(text) if s.kind == "workaround"]


# «Проблема воспроизводится на двух компьютерах», «воспроизводится всегда»: when and where the
# fault shows, said of a problem told elsewhere.
_REPRODUCED = re.compile(r"(?<![\w-])воспроизв\w*", re.I)


def tells_reproduction(clause: str) -> bool:
    """The clause says that (or where) the fault can be reproduced, not what it is."""
    return bool(_REPRODUCED.search(clause))


_ASKING = re.compile(
    r"^\W*(?:а\s+)?(?:можно\s+ли|есть\s+ли|как\s+(?:можно\s+)?(?:это\s+)?"
    r"(?:исправить|решить|починить|обойти))(?![\w-])",
    re.I,
)
_COURTESY = frozenset({"пожалуйста", "плиз", "очень", "просьба", "прошу", "срочно"})
# «Подскажите, почему не работает …»: the plea wraps a question that tells the problem.
_QUESTION_WORDS = re.compile(r"(?<![\w-])(?:почему|отчего|как|где|что|когда|зачем)(?![\w-])", re.I)


# A plea for help opens a sentence that goes on to tell the problem: «Помогите, пожалуйста,
# не могу войти в аккаунт». A request for a change («Исправьте …», «Добавьте …») asks for it.
_PLEAS_FOR_HELP = frozenset(
    {"помогите", "помоги", "подскажите", "подскажи", "посоветуйте", "объясните", "спасите"}
)
_FINITE = frozenset({"pres", "past", "futr"})
_ASKS_WHAT = re.compile(r"(?<![\w-])(?:в\s+ч[её]м|что\s+делать|ли)(?![\w-])", re.I)


def asks_the_maintainers(clause: str) -> bool:
    """A request or question to the project («Пожалуйста, исправьте это», «Можно ли добавить
    предупреждение?»): what the writer asks for, not what goes wrong. A plea for help whose
    sentence goes on past a comma to a verb that tells («Помогите, не могу войти …») is the
    problem told."""
    if _ASKING.search(clause):
        return True
    words = [w for w in re.findall(r"[А-Яа-яЁё-]+", clause) if w.lower() not in _COURTESY]
    if not words or "impr" not in grammemes(words[0]) or _QUESTION_WORDS.search(clause):
        return False
    if words[0].lower() in _PLEAS_FOR_HELP and "," in clause:
        rest = clause[clause.index(",") + 1 :]
        if _ASKS_WHAT.search(rest):
            return True  # «Подскажите, в чём может быть проблема»: it asks, and tells nothing
        told = [w for w in re.findall(r"[А-Яа-яЁё-]+", rest) if w.lower() not in _COURTESY]
        if any(grammemes(w) & _FINITE and "impr" not in grammemes(w) for w in told):
            return False
    return True


# «сломалось после обновления», «всё перестало работать с версии 1.90»: a breakage said of
# nothing named, with only when or after what; «проблема появилась после обновления»: the
# problem's start, said of the bare word for a problem.
_BREAKING = frozenset({"сломаться", "поломаться", "слететь", "отвалиться", "перестать"})
_BEGINNING = frozenset({"появиться", "появляться", "возникнуть", "возникать", "начаться"})
_BEGINNING |= {"начинаться"}
_VAGUE_SUBJECTS = frozenset({"всё", "все", "оно", "это", "он", "она", "они"})
_PREPOSITIONS = frozenset({"после", "с", "со", "в", "во", "на", "при", "от", "до", "из-за"})
# Words that only call something a problem: «ошибка» is left out, since «появилась ошибка»
# is how a report tells an error message.
_BARE_PROBLEMS = frozenset({"проблема", "баг", "глюк", "неполадка", "неисправность"})


def tells_when_it_broke(label: str) -> bool:
    """The pain only says that something broke, or that the problem began, and when
    («сломалось после обновления», «проблема появилась с версии 1.90»): the report says
    elsewhere what broke, and this is the same problem's history."""
    tokens = [t for t in analyse(label) if t.pos != "PUNCT"]
    breaking = any(t.lemma in _BREAKING for t in tokens)
    beginning = any(t.lemma in _BEGINNING for t in tokens)
    if not (breaking or beginning):
        return False
    governed = False
    for token in tokens:
        if token.lower in _PREPOSITIONS:
            governed = True
            continue
        if token.pos in ("NOUN", "PROPN") and not governed and "nomn" in cases(token.text):
            if beginning and token.lemma in _BARE_PROBLEMS:
                continue  # «проблема появилась …»: the problem told, not a thing named
            return False  # «отладка сломалась»: the thing that broke is named
        if token.pos in ("NOUN", "PROPN", "ADJ", "NUM", "DET"):
            continue  # still inside the prepositional phrase
        governed = False
    return True


# «Выдаёт ошибку в коде», «при запуске выскакивает ошибка»: an error said to show, not what it
# says or what goes wrong; the sentence after it usually tells that.
_SHOWING = frozenset(
    {
        "выдавать",
        "выдать",
        "выводить",
        "вывести",
        "показывать",
        "показать",
        "появляться",
        "появиться",
        "выскакивать",
        "выскочить",
        "вылезать",
        "вылезти",
        "выпадать",
        "выпасть",
        "писать",
        "возникать",
        "возникнуть",
        "выбивать",
        "выбить",
    }
)
_ERRORS = frozenset({"ошибка", "проблема", "баг", "сбой", "исключение"})


def tells_an_unnamed_error(label: str) -> bool:
    """The pain says only that an error shows and where or when («выдаёт ошибку в коде»): no
    message, no failing thing named outside a prepositional phrase."""
    tokens = [t for t in analyse(label) if t.pos != "PUNCT"]
    if not any(t.lemma in _ERRORS for t in tokens) or not any(t.lemma in _SHOWING for t in tokens):
        return False
    governed = False
    for token in tokens:
        if token.pos == "ADP":
            governed = True
            continue
        if token.lemma in _ERRORS or token.lemma in _SHOWING:
            governed = False
            continue
        if token.pos in ("NOUN", "PROPN", "ADJ", "NUM", "X") and governed:
            continue  # «в коде», «при запуске программы»: where or when
        if token.pos in ("ADV", "PART", "PRON", "CONJ") and token.lower not in ("не", "ни"):
            continue  # «постоянно», «мне», «опять»
        return False
    return True


# «с такой проблемой», «эта ошибка», «та же ошибка»: the problem already told, pointed back to.
_POINTING_BACK = re.compile(
    r"(?<![\w-])(?:эт\w*|так\w*|данн\w*|подобн\w*|т[аоуеы]\s+же|той\s+же|тех\s+же)\s+"
    r"(?:проблем|ошибк|баг|глюк|сбо[йея])\w*",
    re.I,
)
# What the writer does about the report: attaching a screenshot, checking, trying.
_ABOUT_THE_REPORT = frozenset(
    {
        "прикладывать",
        "приложить",
        "прилагать",
        "прикрепить",
        "прикреплять",
        "вложить",
        "проверять",
        "проверить",
        "пробовать",
        "попробовать",
        "тестировать",
        "протестировать",
    }
)
# «Проблема наблюдается уже неделю», «ошибка сохраняется»: how long or how often, said of a
# problem named only by the word «проблема».
_PERSISTING = frozenset(
    {
        "наблюдаться",
        "сохраняться",
        "сохраниться",
        "оставаться",
        "остаться",
        "повторяться",
        "повториться",
        "присутствовать",
    }
)
_GENERIC_PROBLEMS = frozenset({"проблема", "ошибка", "баг", "глюк", "сбой", "неполадка"})


def about_the_report(clause: str) -> bool:
    """The clause speaks of the problem already told or of the report itself, and names no
    problem of its own: «Может, кто-то сталкивался с такой проблемой?», «Прикладываю скриншот
    ошибки», «Проверял на чистой установке», «Проблема наблюдается уже неделю»."""
    if _POINTING_BACK.search(clause):
        return True
    tokens = [t for t in analyse(clause) if t.pos != "PUNCT"]
    verbs = [t for t in tokens if t.pos in ("VERB", "AUX")]
    if verbs and verbs[0].lemma in _ABOUT_THE_REPORT and "impr" not in grammemes(verbs[0].text):
        return True
    persisting = next((t for t in verbs if t.lemma in _PERSISTING), None)
    if persisting is None:
        return False
    # the subject is the bare word: «проблема с отображением шрифтов сохраняется» names one
    before = [t for t in tokens if t.pos in ("NOUN", "PROPN") and t.start < persisting.start]
    after = [t for t in tokens if t.pos in ("NOUN", "PROPN") and t.start > persisting.start]
    subject = before or [t for t in after if "nomn" in cases(t.text)][:1]
    return len(subject) == 1 and subject[0].lemma in _GENERIC_PROBLEMS


# «…, приходится тянуть полосу прокрутки»: what the writer is driven to do by a fault.
_DRIVEN_TO = re.compile(r",\s+(?:и\s+)?(?:приходится|приходилось|пришлось)(?![\w-])", re.I)


def symptom_before_consequence(
    text: str, clause: Span, cue: tuple[Span, bool]
) -> tuple[Span, bool]:
    """In a bug report «Колесо мыши не прокручивает список, приходится тянуть полосу» the
    fault is before the comma and what the writer must do instead after it: the fault is the
    pain. A clause that tells only what the writer must do keeps it."""
    driven = _DRIVEN_TO.search(text, clause[0], clause[1])
    if driven is None or cue[0][0] < driven.start():
        return cue
    before = (clause[0], driven.start())
    symptom = linguistic.pain_span(text, before)
    return (symptom, False) if symptom is not None else cue


# «Из-за этого я не могу запустить проект», «…, поэтому приходится перезапускать редактор»,
# «Работать так невозможно»: what the fault already told does to the writer. A connective that
# points back, being driven to do something, or being unable to work at all says the problem's
# consequence, not another problem. A Russian report is often machine-translated, so the
# English wordings count too ("Because of this …", "I can't work").
# Words that may open such a clause: the writer, when, how often, in what state. A group named
# before «приходится» («Администраторам приходится обзванивать клиентов») tells its own burden.
_LEAD = (
    r"(?:(?:мне|нам|теперь|сейчас|постоянно|снова|опять|иногда|каждый\s+раз|вс[её]\s+время"
    r"|в\s+таком\s+режиме|в\s+таких\s+условиях|так|с\s+этим|просто|вообще|совершенно|вот\s+и)\s+)"
)
_UNABLE_TO_WORK = (
    rf"{_LEAD}{{0,3}}(?:невозможно|нельзя|нереально)\s+(?:нормально\s+)?(?:работать|пользоваться)"
    r"|(?:нормально\s+)?(?:работать|пользоваться)(?:\s+[\w-]+){0,3}\s+(?:невозможно|нельзя|нереально)"
    r"|(?:I|we)\s+(?:can\s*not|can't|cannot|am\s+unable\s+to)\s+(?:work|use\s+it)"
    r"|(?:it\s+is\s+)?impossible\s+to\s+(?:work|use\s+it)"
)
# what may follow «невозможно работать» and leave it unable to work at all
_AT_ALL = r"(?:\s+(?:нормально|вообще|совсем|так|с\s+этим|этим|им|ей|ими|normally|at\s+all))*"
_CONSEQUENCE = re.compile(
    r"^\W*(?:(?:и|а|но|and|so)\s+)?(?:"
    r"(?:из-за|вследствие)\s+(?:этого|чего|него|нее|неё|них)|поэтому|по\s+этой\s+причине"
    r"|в\s+(?:результате|итоге)(?:\s+(?:этого|чего))?|так\s+что|отчего|следовательно"
    r"|это\s+(?:приводит|привело|приведёт|приведет)"
    rf"|{_LEAD}{{0,3}}(?:приходится|приходилось|пришлось)"
    r"|because\s+of\s+(?:this|that|it)|as\s+a\s+result|(?:that|this)\s+is\s+why|therefore"
    r"|(?:now\s+)?(?:I|we)\s+(?:have|had)\s+to"
    rf"|(?:{_UNABLE_TO_WORK}){_AT_ALL}(?:\s*[,;.!?…]|\s*$)"
    r")(?![\w-])",
    re.I,
)
_CLAUSE_OPENING = re.compile(r"[,;:—–]\s*")


def tells_a_consequence(text: str, sentence: Span, clause: Span, at: int) -> bool:
    """The clause, from the connective that opens the pain's part of it («Из-за этого …»,
    «…, поэтому …», "Please help, I can't work"), says what a fault told elsewhere makes the
    writer do or miss: the same problem again. `at` is where the pain's words start."""
    openings = list(_CLAUSE_OPENING.finditer(text, sentence[0], max(sentence[0], at)))
    start = openings[-1].end() if openings else sentence[0]
    return bool(_CONSEQUENCE.match(text[start : clause[1]]))


# «Терминал должен открываться», «строки должны переноситься», «а должно работать»: «должен»
# said of a thing, or with no one named, is how the thing ought to behave, no one's goal.
_OUGHT = re.compile(r"(?<![\w-])должн(?:о|ы|а)?|(?<![\w-])должен(?![\w-])", re.I)


def tells_what_should_happen(text: str, clause: Span, modal_at: int) -> bool:
    """The «должен» at modal_at says what a thing should do (expected behaviour in a report),
    not what a person needs: its subject in the clause is inanimate, or no noun is its subject
    and the verb after it is reflexive («должно открываться») or the form is the impersonal
    «должно»."""
    modal = _OUGHT.match(text, modal_at)
    if modal is None:
        return False
    tokens = [t for t in analyse(text[clause[0] : clause[1]]) if t.pos != "PUNCT"]
    subjects = [
        t
        for t in tokens
        if t.pos in ("NOUN", "PROPN") and "nomn" in cases(t.text) and t.text[:1].isalpha()
    ]
    people = [t for t in subjects if "anim" in grammemes(t.text)]
    if people:
        return False
    if subjects and any(is_cyrillic(t.text) for t in subjects):
        return True
    after = [t for t in tokens if t.start + clause[0] >= modal.end()]
    verb = next((t for t in after if t.pos == "VERB"), None)
    reflexive = verb is not None and verb.lower.endswith(("ся", "сь"))
    return reflexive or modal.group().lower() == "должно"


# The people who make the product, named bare: in a report they are the ones thanked, asked
# or expected to fix the fault («Спасибо разработчикам», «Передайте авторам», «Когда
# разработчики это исправят?»), not a group of its users. A qualified group («начинающие
# разработчики») is the writer's kind of user and is not read here.
_MAKERS = frozenset({"разработчики", "авторы", "создатели", "мейнтейнеры", "майнтейнеры"})
_THANKS_OR_REQUEST = frozenset(
    {"спасибо", "благодарить", "благодарность", "просьба", "вопрос", "обращаться", "претензия"}
)
# What only the makers do to the product: fix it, break it, release it, promise a fix.
_MAKERS_DO = frozenset(
    {
        "исправить",
        "исправлять",
        "починить",
        "чинить",
        "пофиксить",
        "фиксить",
        "поправить",
        "поправлять",
        "сломать",
        "ломать",
        "выпустить",
        "выпускать",
        "убрать",
        "убирать",
        "обещать",
        "пообещать",
    }
)


def names_the_makers(text: str, sentence: Span, label: str) -> bool:
    """A bare «разработчики» (or «авторы», «создатели») in a sentence that thanks or asks
    someone, or where someone fixes, breaks or changes the product, is the product's makers."""
    if label not in _MAKERS:
        return False
    tokens = [t for t in analyse(text[sentence[0] : sentence[1]]) if t.pos != "PUNCT"]
    if asks_the_maintainers(text[sentence[0] : sentence[1]]):
        return True
    return any(
        t.lemma in _THANKS_OR_REQUEST or t.lemma in _MAKERS_DO or "impr" in grammemes(t.text)
        for t in tokens
    )


# «Правильно было бы не показывать это окно», «лучше бы он не закрывался»: the subjunctive says
# what should be, not what happened.
_SUBJUNCTIVE = re.compile(r"(?<![\w-])(?:бы|б)(?![\w-])", re.I)


def in_the_subjunctive(clause: str) -> bool:
    """The clause is in the subjunctive mood: a wish or a suggestion, not a report."""
    return bool(_SUBJUNCTIVE.search(clause))


# «Нужно, чтобы окно не закрывалось»: «чтобы» with the past form is the subjunctive too, what
# should be or what for, never what happened.
_SO_THAT = re.compile(r"(?<![\w-])(?:чтобы|чтоб|дабы)\s*$", re.I)


def after_so_that(text: str, sentence: Span, clause: Span) -> bool:
    """The clause opens on «чтобы» (the splitter leaves it before the clause's words)."""
    return bool(_SO_THAT.search(text, sentence[0], clause[0]))


# «Раньше такого не было», «в предыдущей версии окно не закрывалось»: the clause tells how it
# was before the fault, in the past tense, not the fault itself.
_BEFORE_THE_FAULT = re.compile(
    r"(?<![\w-])(?:раньше|прежде|ранее|до\s+(?:этого|обновлени\w+|установки|переустановки)"
    r"|в\s+(?:предыдущ|прошл|старой|старых|старом)\w*\s+(?:верси|сборк|релиз)\w*)(?![\w-])",
    re.I,
)
_NOW = re.compile(r"(?<![\w-])(?:теперь|сейчас|ныне|now)(?![\w-])", re.I)


def tells_how_it_was_before(text: str, clause: Span, at: int) -> bool:
    """The part of the clause the pain at `at` is in (between commas: «До обновления подсветка
    работала, после обновления пропала» tells two times) is set before the fault began, and
    its verbs are in the past tense."""
    start = text.rfind(",", clause[0], at) + 1 or clause[0]
    end = text.find(",", at, clause[1])
    part = text[start : clause[1] if end < 0 else end]
    if not _BEFORE_THE_FAULT.search(part) or _NOW.search(part):
        return False
    verbs = [t for t in analyse(part) if t.pos in ("VERB", "AUX")]
    return bool(verbs) and all("past" in grammemes(t.text) for t in verbs)


# «Это очень мешает работе», «это раздражает»: what the problem told does to the writer.
_IMPACT = frozenset({"мешать", "раздражать", "бесить", "напрягать", "отвлекать", "злить"})
_POINTERS = frozenset({"это", "что", "оно", "всё", "все"})


def tells_only_the_impact(label: str, sentence: str) -> bool:
    """The pain says only how a problem told elsewhere affects the writer: its subject is
    «это» and its words are an impact verb and at most «работа»."""
    words = [t for t in analyse(sentence) if t.pos != "PUNCT"]
    if not words or words[0].lower not in _POINTERS:
        return False
    tokens = [t for t in analyse(label) if t.pos != "PUNCT"]
    content = [t for t in tokens if t.pos in ("NOUN", "PROPN", "VERB", "ADJ")]
    return any(t.lemma in _IMPACT for t in content) and all(
        t.lemma in _IMPACT or t.lemma in ("работа", "работать") for t in content
    )
