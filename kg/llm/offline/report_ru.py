"""How a Russian bug report tells its problem: the readings of its sentences that the
general rules cannot make (a plea that wraps the problem, a consequence told after it, when it
broke). Where the template's sections are is report_layout's business."""

from __future__ import annotations

import re

from kg.language import is_cyrillic
from kg.language.tokens import analyse, cases, grammemes
from kg.llm.offline import lexicon_ru
from kg.llm.offline.pain_spans import pain_span
from kg.llm.offline.rule_words import NEGATORS

Span = tuple[int, int]


# «Проблема воспроизводится на двух компьютерах», «воспроизводится всегда»: when and where the
# fault shows, said of a problem told elsewhere.
_REPRODUCED = re.compile(r"(?<![\w-])воспроизв\w*", re.I)


# «видео не воспроизводится»: media that does not play, a fault of its own
_MEDIA_PLAYED = re.compile(
    rf"(?<![\w-]){lexicon_ru.MEDIA_NOUNS}\s+(?:[\w-]+\s+){{0,3}}?(?:не\s+)?воспроизв",
    re.I,
)


# Words that may stand before a task's verb: «Также заменить …», «И ещё добавить …».
_TASK_LEAD = frozenset({"также", "ещё", "еще", "и", "а", "потом", "затем", "тоже"})


def states_a_task(clause: str) -> bool:
    """«Также заменить устаревший модуль на новый», «Вместо старого поля завести отдельное
    свойство»: a clause whose only verb is an infinitive says work to do, no fault seen."""
    tokens = [t for t in analyse(clause) if t.pos != "PUNCT"]
    verbs = [t for t in tokens if t.pos in ("VERB", "AUX")]
    if not verbs or any(t.lower in NEGATORS for t in tokens):
        return False
    if not all("INFN" in grammemes(t.text) for t in verbs):
        return False
    lead = [t for t in tokens[: tokens.index(verbs[0])] if t.lower not in _TASK_LEAD]
    # «Вместо старого поля завести …»: a phrase of what it replaces may come first
    return not lead or lead[0].lower in ("вместо", "для", "чтобы")


def tells_reproduction(clause: str) -> bool:
    """The clause says that (or where) the fault can be reproduced, not what it is."""
    return bool(_REPRODUCED.search(clause)) and not _MEDIA_PLAYED.search(clause)


# «Журнал ошибок ничего не выводит», «логи ничего не показывают»: where errors would be
# written holds none, so no fault is told there (the fault itself is told elsewhere).
_NOTHING_LOGGED = re.compile(
    r"(?<![\w-])(?:консол\w*\s+ошибок|журнал\w*|лог(?:и|е|ах|ов)?)(?![\w-])(?:\s+[\w-]+){0,2}?"
    r"\s+ничего\s+не\s+(?:показыва|выводи|вывод|пиш|отобража|содерж)\w*",
    re.I,
)


def tells_nothing_logged(clause: str) -> bool:
    return _NOTHING_LOGGED.search(clause) is not None


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
    headed = False  # the prepositional phrase has its noun
    for token in tokens:
        if token.lower in _PREPOSITIONS:
            governed, headed = True, False
            continue
        if (
            governed
            and headed
            and token.pos == "NOUN"
            and "gent" not in cases(token.text)
            and "nomn" in cases(token.text)
        ):
            # «после установки расширения Prettier | форматирование перестало работать»: a
            # noun that no genitive chain reaches is the clause's own subject
            governed = False
        if token.pos in ("NOUN", "PROPN") and not governed and "nomn" in cases(token.text):
            if beginning and token.lemma in _BARE_PROBLEMS:
                continue  # «проблема появилась …»: the problem told, not a thing named
            return False  # «отладка сломалась»: the thing that broke is named
        if token.pos in ("NOUN", "PROPN", "ADJ", "NUM", "DET"):
            headed = headed or token.pos in ("NOUN", "PROPN")
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
# The tracker's own business: its search for the same report («явных дубликатов не найдено»),
# a ticket filed («для этого был заведён баг 123»).
_THE_TRACKERS_OWN = re.compile(r"(?<![\w-])(?:дубликат|заведен|заведён)\w*", re.I)
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
        "существовать",
    }
)
_GENERIC_PROBLEMS = frozenset({"проблема", "ошибка", "баг", "глюк", "сбой", "неполадка"})


def about_the_report(clause: str) -> bool:
    """The clause speaks of the problem already told or of the report itself, and names no
    problem of its own: «Может, кто-то сталкивался с такой проблемой?», «Прикладываю скриншот
    ошибки», «Проверял на чистой установке», «Проблема наблюдается уже неделю», «Явных
    дубликатов не найдено», «Для этого был заведён баг 123»."""
    if _POINTING_BACK.search(clause) or _THE_TRACKERS_OWN.search(clause):
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
    symptom = pain_span(text, before)
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
