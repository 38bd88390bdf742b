"""Pains: the problems a sentence reports, each with its own label and quote.

For each clause that states a problem (problems) a pain is made (`_pains`) with a label from
the clause (pain_spans), widened where it would not read alone: with the antecedent of "it",
with what came instead, with the message an error said, with the negator that makes it a
fault. A task the writer sets out or a tool they used is no pain.
Example: "It shows 'sync failed' whenever I go offline" gives the pain "shows 'sync failed'
whenever I go offline", the quoted message kept whole.
"""

from __future__ import annotations

import re
from types import ModuleType

from kg.language import Token, analyse, content_lemmas, grammemes
from kg.llm.offline import lexicon_ru, report_ru
from kg.llm.offline.complaints import good_until
from kg.llm.offline.labels import fragment_reason, names_a_record_of_problems, names_only_an_area
from kg.llm.offline.non_problems import (
    asks_the_reader,
    denies_a_problem,
    hard_to_say,
    holds_its_comma,
    negates_the_setup,
    not_a_pain,
    outgrown,
    resolved_later,
    suggested,
    with_preposition,
)
from kg.llm.offline.pain_spans import noun_phrase_end, pain_span
from kg.llm.offline.problems import said_by_a_thing
from kg.llm.offline.requests import against_expectation, without_courtesy
from kg.llm.offline.rule_words import NEGATORS, PROBLEM_LEMMAS
from kg.llm.offline.segments import _word_before
from kg.llm.offline.sentences import (
    _EDGE_PUNCTUATION,
    _NAMED_CONCEPTS,
    _QUOTED,
    _TOKEN,
    Finding,
    Sentence,
    Span,
    _label,
    _phrase,
    _trim,
    _words_before,
)
from kg.llm.offline.similarity import concepts
from kg.llm.offline.uses import tells_a_workaround


def _pains(
    text: str,
    sentence: Sentence,
    goal_spans: list[Span],
    alternatives: list[Finding],
    competitors: list[Finding],
) -> list[Finding]:
    """At most one pain per clause, taking the cue whose wording makes the best label.

    Not a pain of the segment: a rival's drawback ("switched from Onfleet because the pricing
    kept going up"), and work by hand that the clause only measures or says how it is done
    ("re-planning a route by hand takes 15 minutes", "отправляют вручную в WhatsApp")."""
    lex = sentence.lex
    found: list[Finding] = []
    english = lex.LANG == "en"
    if asks_the_reader(text, (sentence.start, sentence.end)):
        return found
    if not english and report_ru.asks_the_maintainers(text[sentence.start : sentence.end]):
        return found  # «Пожалуйста, исправьте это», «Можно ли добавить …?»: a request
    if not english and lex.HOW_TO_JOB.match(text, sentence.start, sentence.end):
        return found  # «Как убрать подчёркивание ошибок?»: a way asked for, no fault told
    for clause in sentence.clauses:
        if hard_to_say(text, clause):
            continue
        if english and suggested(text, clause):
            continue  # "why not try to let people know …?": a suggestion, not a fault
        if not english and report_ru.tells_reproduction(text[clause[0] : clause[1]]):
            continue  # «воспроизводится на двух компьютерах»: where, not what goes wrong
        if not english and report_ru.tells_nothing_logged(text[clause[0] : clause[1]]):
            continue  # «Журнал ошибок ничего не выводит»: no error written, none told
        if english and _REPRODUCED_EN.search(text, *clause):
            continue  # "can't reproduce it now", "reproduces in safe mode": whether, not what
        if _ANOTHER_TICKET.match(text, clause[0]) or _A_CODE_TASK.match(text, clause[0]):
            continue  # "Bug 1602463 added a new agent", "Port shell changes …": work, no fault
        if _A_CODE_TASK_RU.search(text, *clause):
            continue  # «Портировать изменения из бага 123»: work on the code, no fault
        if english and _CODE_WORK_TO_DO.search(text, *clause):
            continue  # "the old parser needs to be removed": work still to do, no fault one sees
        if tells_a_workaround(text, clause):
            continue  # "reopening it elsewhere eliminates the problem": the way round, no fault
        if negates_the_setup(text[clause[0] : clause[1]]):
            continue  # "Antivirus is not installed", «прокси не используется»: the setup
        if not english and report_ru.about_the_report(text[clause[0] : clause[1]]):
            continue  # «Прикладываю скриншот ошибки»: the report's own business
        if not english and report_ru.states_a_task(text[clause[0] : clause[1]]):
            continue  # «Также заменить устаревший модуль»: work to do, no fault
        if not english and (
            report_ru.in_the_subjunctive(text[clause[0] : clause[1]])
            or report_ru.after_so_that(text, (sentence.start, sentence.end), clause)
        ):
            continue  # «Правильно было бы не показывать это окно», «…, чтобы оно не …»
        cue = _pain_in_clause(text, clause, lex)
        if cue is not None and not english:
            cue = report_ru.symptom_before_consequence(text, clause, cue)
        if cue is not None and denies_a_problem(text, cue[0], clause):
            cue = None  # "nothing happens, no errors in the log": the grammar finds which
        if cue is not None and not_a_pain(text, clause, (sentence.start, sentence.end), english):
            continue  # negated, hypothetical or praise: the pattern's words, not a problem
        if cue is None:
            grammar = pain_span(text, clause) or against_expectation(
                text, clause, (sentence.start, sentence.end)
            )
            if grammar is None:
                continue
            cue = grammar, False
        span, manual = cue
        if any(g[0] <= span[0] < g[1] for g in goal_spans):
            continue
        if not english and report_ru.tells_how_it_was_before(text, clause, span[0]):
            continue  # «в прошлой версии окно не закрывалось»: before the fault
        # an English clause may run on past its problem without a comma ("it used to crash
        # but now it runs fine"): what is said after the problem's own words counts
        told = (clause[0], span[1]) if english else clause
        if resolved_later(text, told, (sentence.start, sentence.end)):
            continue  # «раньше не открывался, но теперь всё работает»: over
        if english and outgrown(text, span, (sentence.start, sentence.end)):
            continue  # "didn't like it at first, but now …": a first impression, gone
        if any(
            c.at < span[0] and lex.DRAWBACK_LINK.search(text, c.at, span[0]) for c in competitors
        ):
            continue
        if manual and (
            lex.METRIC_NUMBER.search(text, *clause) is not None
            or any(clause[0] <= a.at < clause[1] for a in alternatives)
            or _ORDERED.match(text, clause[0])
            or _OFFERED.match(text, clause[0])
        ):
            continue  # "Try it by hand", "You can update it manually": the reader's to do
        phrase, label = _pain_label(text, span, clause, sentence)
        lone = english and len(label.split()) == 1  # "it makes my phone lag": a word alone
        if label and (fragment_reason(label) or lone):
            # the pattern's words cut the clause mid-phrase ("… doesn't work at all"): the
            # grammar's reading of the same clause may still make a whole statement
            grammar = pain_span(text, clause)
            if grammar is not None and grammar != span:
                other_phrase, other = _pain_label(text, grammar, clause, sentence)
                if other and not fragment_reason(other):
                    phrase, label = other_phrase, other
        if label and names_only_an_area(label) and _defined(text, phrase):
            continue  # a rating scale's term ("Minor issue: fix when there is time")
        if label and english and names_a_record_of_problems(label):
            continue  # "Crash Logs": a heading or a tool, no problem that happens
        if label:
            found.append(Finding("pain", label, clause, phrase[0]))
    return found


_THE_BEFORE = re.compile(r"(?<![\w-])the\s+$", re.IGNORECASE)


def _points_onward(text: str, finding: Finding) -> bool:
    """ "the following changeset", «следующий файл»: a pointer to words after it. A bare
    "following" may be a function (following people), so English needs its "the"."""
    label = finding.label.lower()
    if label.startswith("следующ"):
        return True
    start = max(0, finding.at - 6)
    return label.startswith("following") and _THE_BEFORE.search(text, start, finding.at) is not None


_REPRODUCED_EN = re.compile(r"(?<![\w-])(?:reproduc\w*|repro)(?![\w-])", re.IGNORECASE)

# A clause that opens on another ticket by its number: "Bug 1602463 …", "Issue #12 …", «Баг 123».
_ANOTHER_TICKET = re.compile(
    r"(?:(?:in\s+|в\s+)?(?:port\s+)?(?:bug|issue|ticket|баг\w*|задач\w*|тикет\w*)\s*#?\d+"
    r"|#\d+)(?![\w-])",
    re.IGNORECASE,
)


# A clause that opens on a maintainer's verb for work on the code: a task, not a fault one sees
# ("Port shell changes …", "We need to port the new flag", "This patch backports …"); the
# ticket telling its own history ("This bug was initially created as a clone of …", "This bug
# will track the changes").
_A_CODE_TASK = re.compile(
    r"(?:\+\+\+\s*)?(?:this\s+(?:patch\s+|change\s+|changeset\s+)?(?:ports|backports|refactors|"
    r"bumps|uplifts)\s|(?:we\s+(?:(?:need|have|ought)\s+to|should|must)\s+)?"
    r"(?:port|backport|refactor|bump|uplift)\s+(?!is\b|are\b|was\b)"
    r"|this\s+(?:bug|issue|ticket)\s+(?:was\s+(?:initially\s+|originally\s+)?(?:created|filed|"
    r"cloned|opened|split)|will\s+(?:track|cover|be\s+used)))",
    re.IGNORECASE,
)


# A ticket's task, named by its verb: "Fix the account manager in the prefs pane", "Rename the
# build flags", "Stop using the old keys", "Add missing headers to the build".
_A_TASK = re.compile(
    r"\W*(?:(?P<fix>fix|correct)|rename|stop\s+using|clean\s+up|add\s+(?:the\s+)?missing)\s+"
    r"(?!is\b|are\b|was\b|it\b|this\b|that\b)",
    re.IGNORECASE,
)


def _names_a_task(text: str, pain: Finding) -> bool:
    """A ticket's statement that opens on the verb of a task on the code and names no fault,
    only the part to work on: the task's name. "Fix the crash on save" names one."""
    task = _A_TASK.match(text, pain.quote[0], pain.quote[1])
    if task is None:
        return False
    if not task["fix"]:
        return True
    problems = PROBLEM_LEMMAS
    rest = analyse(text[task.end() : pain.quote[1]])
    return not any(t.lemma in problems or t.lower in problems for t in rest)


_USE = r"(?:use[sd]?|using|использу\w*|пользу\w*)"

_A_TOOL_USED = re.compile(rf"{_USE}\s", re.IGNORECASE)

# the later names of a list the use cue opens: "use Jira, Confluence and Slack"
_IN_A_LIST_USED = re.compile(
    rf"(?<![\w-]){_USE}\s+(?:[\w.+-]+(?:\s+[\w.+-]+)?\s*(?:,|\band\b|\bor\b|&|и)\s*)+$",
    re.IGNORECASE,
)


_AN_EXAMPLE = re.compile(r"(?:like|such\s+as|e\.g\.|including)\s", re.IGNORECASE)


_ABLE_AFTER = re.compile(
    r"\s+(?:(?:already|уже)\s+)?(?:can|provides|offers|supports|allows|lets|умеет|позволяет"
    r"|поддерживает|предлагает)(?![\w-])",
    re.IGNORECASE,
)


def _a_tool_used(text: str, competitor: Finding) -> bool:
    start = competitor.quote[0]
    return bool(
        _A_TOOL_USED.match(text, start) or _IN_A_LIST_USED.search(text, max(0, start - 120), start)
    )


# "Clearing the cache does not help", "turning off the plugins did not change anything",
# «Переустановка не помогла», «очистка кэша ничего не изменила»
# A clause that opens on an order: "Try it manually", «Попробуйте вручную».
_ORDERED = re.compile(
    r"\W*(?:try|do|check|test|repeat|run|попробуйте|попробовать|сделайте|проверьте|проверить)"
    r"(?![\w-])",
    re.IGNORECASE,
)

# A clause that offers the reader a way: "You can update it manually", «Вы можете …».
_OFFERED = re.compile(
    r"\W*(?:you\s+(?:can|may|could)|(?<![\w-])вы\s+(?:можете|могли\s+бы))(?![\w-])",
    re.IGNORECASE,
)

_TRIED_REMEDY = re.compile(
    r"\b(?:does\s+not|doesn't|did\s+not|didn't|won't|will\s+not)\s+(?:help|change\s+(?:anything|"
    r"the\s+behaviou?r|a\s+thing)|make\s+(?:any\s+|a\s+)?difference)\b"
    r"|(?<![\w-])не\s+(?:помога\w*|помог\w*|изменил\w*|меняет)(?![\w-])"
    r"|(?<![\w-])ничего\s+не\s+(?:да[её]т|дал[оа]?|изменил\w*)(?![\w-])",
    re.IGNORECASE,
)

# "so that I can …", "in order to …", «чтобы я мог …», «для того чтобы …»: the writer's own
# aim, right before the job it opens; a bare «чтобы» or "to" is what a step is for
_WRITERS_AIM = re.compile(
    r"(?:so\s+that\s+(?:I|we)\s+(?:can|could|will)|in\s+order\s+to"
    r"|(?<![\w-])для\s+того,?\s+чтобы|(?<![\w-])чтобы\s+(?:я|мы)(?:\s+мог\w*)?)\s+$",
    re.IGNORECASE,
)


def _the_writers_aim(text: str, job: Finding) -> bool:
    """A ticket's job: what its writer asks how to do («Как вернуть старую панель?») or says
    they were after."""
    if job.origin == "asked":
        return True
    return job.origin == "aim" and bool(_WRITERS_AIM.search(text, max(0, job.at - 40), job.at))


_A_CODE_TASK_RU = re.compile(r"(?<![\w-])(?:портир|бэкпорт)\w*", re.IGNORECASE)

# Work still to do on the code: "the old parser needs to be removed" (not "needs to be fixed", which
# tells a fault)
_CODE_WORK_TO_DO = re.compile(
    r"\bneeds?\s+to\s+be\s+(?:removed|changed|updated|ported|adapted|rewritten|renamed|"
    r"migrated|converted|replaced)\b",
    re.IGNORECASE,
)


def _pain_label(text: str, span: Span, clause: Span, sentence: Sentence) -> tuple[Span, str]:
    """The words of a pain cut to a statement, and its label."""
    lex = sentence.lex
    opening = _WHEN_CLAUSE.match(text, span[0], span[1]) if lex.LANG == "en" else None
    if opening is not None and len(text[opening.end() : span[1]].split()) > 1:
        span = (opening.end(), span[1])  # "When I press F5, nothing happens": what happens
    # "instead of the page, it shows markup": the comma is inside the statement
    cutter = None if holds_its_comma(text, span) else lex.PAIN_CUTTER
    if cutter is not None and lex.LANG == "en" and good_until(text, clause):
        cutter = lex.PAIN_CUTTER_KEEPING_UNTIL  # "worked fine until the update"
    phrase = _phrase(text, *span, lex, cutter, lex.PAIN_MAX_WORDS, clause_first=True)
    if lex.LANG == "en" and cutter is not None and len(text[phrase[0] : phrase[1]].split()) < 2:
        phrase = _past_a_lone_word(text, span, lex, cutter) or phrase
    phrase = _with_negator(text, without_courtesy(text, phrase), clause[0])
    phrase = with_preposition(text, phrase, clause)
    phrase = _whole_quote(text, phrase, clause)
    phrase = _with_the_message_said(text, phrase, clause)
    phrase = _with_pronoun_subject(text, phrase, clause[0])
    phrase = _with_antecedent(text, phrase, sentence, lex)
    if lex is lexicon_ru:
        phrase = _past_a_cut_preposition(text, phrase, clause[0])
        phrase = _with_what_it_qualifies(text, phrase, clause, lex)
        phrase = _with_what_came_instead(text, phrase, clause, lex)
    if text[phrase[1] : phrase[1] + 1] == "%" and text[phrase[1] - 1 : phrase[1]].isdigit():
        phrase = (phrase[0], phrase[1] + 1)  # "на 100%": the sign is the number's own
    dangling = _OPENS_A_CLAUSE_AFTER.search(text, phrase[0], phrase[1])
    if dangling is None and _CLAUSE_IT_POINTS_TO.match(text, phrase[1]):
        dangling = _POINTING_END.search(text, phrase[0], phrase[1])
    if dangling is not None and len(text[phrase[0] : dangling.start()].split()) > 1:
        phrase = (phrase[0], dangling.start())
    return phrase, _label(text, phrase, sentence)


# «окно зависает вместо того[, чтобы открыться]»: the words that open the clause after the
# comma, left at the end of a label the comma cut
_OPENS_A_CLAUSE_AFTER = re.compile(
    r"\s+(?:вместо|для|после|до|из-за|перед|кроме)\s+того\s*$", re.IGNORECASE
)

# «подчёркивает ошибки там[, где их нет]»: a pointing word whose clause the comma cut off
_POINTING_END = re.compile(r"\s+(?:там|тогда|туда|оттуда|так)\s*$", re.IGNORECASE)

_CLAUSE_IT_POINTS_TO = re.compile(
    r"\s*,\s*(?:где|когда|куда|откуда|что|как|чтобы)(?![\w-])", re.IGNORECASE
)


# A clause of when or on what condition, set off by its comma, before the statement.
_WHEN_CLAUSE = re.compile(
    r"\s*(?:when|whenever|if|once|after|as\s+soon\s+as)\s[^,;:.!?]{1,80},\s*", re.IGNORECASE
)


_RELATIVE_OPENING = re.compile(r"(?:котор\w+|which|who)(?![\w-])", re.IGNORECASE)

_COMMA_BEFORE = re.compile(r",\s*$")


def _with_antecedent(text: str, phrase: Span, sentence: Sentence, lex: ModuleType) -> Span:
    """«…серая полоса, которая закрывает кнопки»: a label that opens on a relative
    pronoun takes in the noun phrase it stands for."""
    if not _RELATIVE_OPENING.match(text, phrase[0], phrase[1]):
        return phrase
    comma = _COMMA_BEFORE.search(text, sentence.start, phrase[0])
    if comma is None:
        return phrase
    start = _words_before(text, comma.start(), sentence.start, lex, 3)
    return (start, phrase[1]) if start < comma.start() else phrase


_DENIED_WORD = re.compile(r"(?<![\w-])не\s+(\w+)", re.IGNORECASE)

_INSTEAD_AFTER = re.compile(r",\s+а\s+(?!не(?![\w-]))[^,.;:!?]+", re.IGNORECASE)


def _with_what_came_instead(text: str, phrase: Span, clause: Span, lex: ModuleType) -> Span:
    """«выделяется не слово[, а вся строка]»: a label that denies what was meant (a thing or
    a place, not a verb) takes in what happened instead, told after «, а», when it fits."""
    denied = list(_DENIED_WORD.finditer(text, phrase[0], phrase[1]))
    if not denied or analyse(denied[-1].group(1))[0].pos == "VERB":
        return phrase  # «не работает, а …»: a denied verb ends its own statement
    instead = _INSTEAD_AFTER.match(text, phrase[1], clause[1] + 1)
    if instead is None:
        return phrase
    end = _trim(text, instead.start(), instead.end())[1]
    if len(text[phrase[0] : end].split()) > lex.PAIN_MAX_WORDS:
        return phrase
    return phrase[0], end


def _with_what_it_qualifies(text: str, phrase: Span, clause: Span, lex: ModuleType) -> Span:
    """«[символы появляются] с задержкой», «[файл открывается] около минуты»: a Russian label
    that is only a circumstance, a preposition and its noun with no verb, takes in the clause
    it qualifies, when that fits in a label."""
    tokens = analyse(text[phrase[0] : phrase[1]])
    if not tokens or tokens[0].pos != "ADP" or any(t.pos == "VERB" for t in tokens):
        return phrase
    start = _trim(text, clause[0], phrase[0])[0]
    if start >= phrase[0] or len(text[start : phrase[1]].split()) > lex.PAIN_MAX_WORDS:
        return phrase
    if not any(_tells_what_happens(t) for t in analyse(text[start : phrase[0]])):
        return phrase  # «потом скопировать … в письмо»: steps to take, not what happens
    return start, phrase[1]


def _tells_what_happens(token: Token) -> bool:
    """A finite verb: «появляются», not the infinitive of a step to take («скопировать»)."""
    return token.pos == "VERB" and "INFN" not in grammemes(token.text)


def _past_a_cut_preposition(text: str, phrase: Span, floor: int) -> Span:
    """«[после обновления] до версии 1.60 терминал не открывается»: a label that starts on the
    tail of a phrase cut before it starts past that tail (a preposition, its noun and any
    number), so it opens on the statement, not on a piece of its circumstances."""
    if phrase[0] <= floor or not text[floor : phrase[0]].strip():
        return phrase  # the clause's own start: a whole phrase
    if not text[: phrase[0]].rstrip()[-1:].isalpha():
        return phrase  # after a comma or a quote: nothing was cut
    tokens = analyse(text[phrase[0] : phrase[1]])
    if len(tokens) < 4 or tokens[0].pos != "ADP" or tokens[1].pos != "NOUN":
        return phrase
    k = 2
    while k < len(tokens) and tokens[k].pos in ("NUM", "X"):
        k += 1
    rest = tokens[k:]
    if not any(t.pos == "VERB" for t in rest):
        return phrase  # the statement would lose its verb
    return (phrase[0] + tokens[k].start, phrase[1])


def _past_a_lone_word(
    text: str, span: Span, lex: ModuleType, cutter: re.Pattern[str]
) -> Span | None:
    """A cut that left one word: after a comma or "but" the problem is told after the cut
    ("… on my tablet, almost unreadable", "… all the time but was horrified"); after a time
    ("stops after ten seconds") the word needs its adjunct to say anything."""
    cuts = [m for m in cutter.finditer(text, *span) if m.start() > span[0]]
    if not cuts:
        return None
    if cuts[0].group().strip().lower() in (",", "but"):
        if len(text[cuts[0].end() : span[1]].split()) < 2:
            return None
        return _phrase(text, cuts[0].end(), span[1], lex, cutter, lex.PAIN_MAX_WORDS)
    end = cuts[1].start() if len(cuts) > 1 else span[1]
    return _phrase(text, span[0], end, lex, None, lex.PAIN_MAX_WORDS)


_BE = frozenset(("is", "are", "was", "were", "'s"))

# Predicates a pain may open on besides "be": "it has lots of pop-ups", "it used to sync".
_PREDICATE_OPENERS = _BE | frozenset(("has", "have", "had", "used", "keeps", "kept", "been"))

# "its" before "been" is "it's" typed without its apostrophe ("its been glitching all week")
_PRONOUN_SUBJECTS = frozenset(("it", "this", "that", "they", "he", "she", "there", "its"))


def _with_pronoun_subject(text: str, phrase: Span, floor: int) -> Span:
    """ "it is a very bad update", not "is a very bad update"; "it has lots of pop-ups": a
    predicate keeps the pronoun it is said of, or it reads as a fragment."""
    first = _TOKEN.match(text, phrase[0])
    before = list(_TOKEN.finditer(text, floor, phrase[0]))
    if first is None or first.group().lower() not in _PREDICATE_OPENERS or not before:
        return phrase
    if before[-1].group().lower() in _PRONOUN_SUBJECTS:
        return before[-1].start(), phrase[1]
    return phrase


_SHORT_QUOTE = 8  # words: a message or a name, not a passage

_CLOSED_AFTER_STOP = re.compile(r"[.!?…]*[\"”»]")


def _whole_quote(text: str, phrase: Span, clause: Span) -> Span:
    """A label never holds half a quotation: one that ends inside the quote takes it to its
    close, one that starts inside it takes the word the quote names ('error "Access denied"
    when saving', not 'denied" when saving')."""
    start, end = phrase
    # a message that ends its sentence closes after the stop: 'says "Upload failed."'
    closing = _CLOSED_AFTER_STOP.match(text, clause[1])
    stop = closing.end() if closing else clause[1]
    for opened in _QUOTED.finditer(text, clause[0], stop):
        quote_start, quote_end = opened.span()
        if not (start < quote_end and quote_start < end) or (
            start < quote_start and quote_end <= end
        ):
            continue  # apart from the quote, or holding all of it
        if start > quote_start and end < quote_end and len(opened.group().split()) > _SHORT_QUOTE:
            continue  # told inside a passage it quotes: the passage is no label
        if start >= quote_start:
            # «сообщение "Не получается открыть файл"»: the label takes the word the quote names
            before = list(_TOKEN.finditer(text, clause[0], quote_start))
            start = before[-1].start() if before else quote_start
        end = max(end, quote_end)
    return start, end


# A verb that says a message joined to a label's statement at its end: «не запускается и
# пишет», "fails and says" (alone, «ничего не показывает» is the statement itself).
_SAYS_AT_END = re.compile(
    r"\s+(?:и|а|and)\s+(?:пишет|выда[её]т|показывает|сообщает|говорит|ругается|says|shows"
    r"|reports|displays|prints|throws)\s*:?\s*$",
    re.IGNORECASE,
)

_MESSAGE_AFTER = re.compile(r"\s*:?\s*(?:\"[^\"\n]{1,80}\"|«[^»\n]{1,80}»|“[^”\n]{1,80}”)")


def _with_the_message_said(text: str, phrase: Span, clause: Span) -> Span:
    """A label that ends on a verb of saying takes the message said right after it, in
    quotes: «отладчик не запускается и пишет "Cannot find module"»; with no message there,
    the verb is left out, not left hanging («… не запускается»)."""
    says = _SAYS_AT_END.search(text, phrase[0], phrase[1])
    if says is None:
        return phrase
    message = _MESSAGE_AFTER.match(text, phrase[1], clause[1] + 1)
    if message is not None:
        return phrase[0], message.end()
    if len(text[phrase[0] : says.start()].split()) >= 2:
        return phrase[0], says.start()
    return phrase


def _defined(text: str, phrase: Span) -> bool:
    """The phrase is a term a colon goes on to explain, as in a legend or a glossary."""
    return text[phrase[1] : phrase[1] + 3].lstrip(" *_").startswith(":")


def _with_negator(text: str, phrase: Span, floor: int) -> Span:
    """A pain's words keep the negation right before them: «не могу», "can't", and one a
    degree adverb stands after: "doesn't even launch"."""
    before = list(_TOKEN.finditer(text, floor, phrase[0]))
    words = [b.group().lower().strip(_EDGE_PUNCTUATION) for b in before]
    at = len(words) - 1
    if at > 0 and words[at] in _NEGATED_DEGREE and words[at - 1].isascii():
        at -= 1
    word = words[at] if at >= 0 else ""
    if word in NEGATORS or word.endswith(("n't", "n’t")):  # "didn't like"
        return before[at].start(), phrase[1]
    return phrase


# Adverbs that stand between a negation and its verb: "won't even open", "doesn't really work".
_NEGATED_DEGREE = frozenset(("even", "really", "always", "ever", "actually", "quite"))


def _pain_in_clause(text: str, clause: Span, lex: ModuleType) -> tuple[Span, bool] | None:
    """The pain's words in a clause, and whether only "by hand" said it is one."""
    start, end = clause
    complement = lex.PAIN_COMPLEMENT.search(text, start, end)
    if (
        complement is not None
        and lex.LANG == "en"
        and complement.group().lower().startswith("complain")
        and said_by_a_thing(text, start, complement.start())
    ):
        subject = _words_before(text, complement.start(), start, lex, lex.SUBJECT_MAX_WORDS)
        return (subject, end), False  # "the compiler complains about …": the tool's error
    if complement is not None and len(text[complement.end() : end].split()) > 1:
        return (complement.end(), end), False  # "hate it": the thing is named before the cue
    spans: list[Span] = []
    predicate = lex.PAIN_PREDICATE.search(text, start, end)
    if predicate is not None:
        subject = _words_before(text, predicate.start(), start, lex, lex.SUBJECT_MAX_WORDS)
        spans.append((subject, end))
    verbal = lex.PAIN_VERBAL.search(text, start, end)
    if verbal is not None:
        spans.append((verbal.start(), end))
    if spans:
        # the earlier wording carries the clause ("loses the route when …")
        return min(spans), False
    manual = lex.PAIN_MANUAL.search(text, start, end)
    if manual is not None:
        subject = _words_before(text, manual.start(), start, lex, lex.SUBJECT_MAX_WORDS)
        if subject < manual.start():
            return (subject, manual.end()), True
    noun = lex.PAIN_NOUN.search(text, start, end)
    if noun is not None:
        return (noun.start(), noun_phrase_end(text, noun.end(), end)), False
    return None


_INSTEAD_OF_IT = re.compile(
    r"(?:вместо\s+(?:него|нее|неё|них|этого|этой|этих)|instead\s+of\s+(?:it|that|this|them))"
    r"(?![\w-])",
    re.IGNORECASE,
)


def _restated(text: str, sentence: Sentence, pain: Finding, earlier: list[Finding]) -> bool:
    """A pain told again about someone or something just named: "Owners hate counting stock by
    hand; one of them said it eats her whole evening", "Couriers say the app lags on weak
    internet. He loses the route every time the signal drops". The first wording stands."""
    if not earlier:
        return False
    lex = sentence.lex
    pronoun = _word_before(text, sentence.start, pain.at)
    if pronoun in lex.THING_PRONOUNS or _INSTEAD_OF_IT.match(pain.label):
        return True  # «вместо неё показывается …»: what replaces a thing already told of
    words = {w.lower() for w in pain.label.split()}
    if words & (lex.PERSON_PRONOUNS | lex.THING_PRONOUNS) and any(
        content_lemmas(pain.label) & content_lemmas(other.label) for other in earlier
    ):
        return True  # "the button fails … It still does not work": the same thing again
    if pronoun not in lex.PERSON_PRONOUNS:
        return False
    said = concepts(pain.label) & _NAMED_CONCEPTS
    return any(said & concepts(other.label) for other in earlier)
