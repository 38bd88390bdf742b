"""Restatements: a statement said twice, and what a report's title already told.

A bug report's title restated in its description, or a pain stated twice in a message, gives
one finding, not two (`_title_restated`, `_said_again`); a statement followed by words that
only call it trouble ("They moved the search bar. This is really annoying.") is a pain
labelled by its own words (`_judged_statements`).
Example: a report titled "Crash on startup" whose text says "The app crashes whenever it
starts" gives one pain, "app crashes whenever it starts".
"""

from __future__ import annotations

import re

from kg.language import analyse, content_lemmas
from kg.llm.offline import lexicon_en
from kg.llm.offline.labels import (
    fragment_reason,
    gives_only_a_vague_verdict,
    judges_what_came_before,
    names_nothing,
    names_only_an_area,
    reads_as_english,
    states_a_clause,
)
from kg.llm.offline.non_problems import (
    not_a_pain,
    says_all_is_well,
    says_it_works,
    tells_only_since_when,
)
from kg.llm.offline.pains import _pain_label
from kg.llm.offline.sentences import _CYRILLIC, Finding, Sentence, Span, _trim
from kg.llm.offline.similarity import same_thing
from kg.llm.offline.uses import tells_a_workaround


def _judged_statements(text: str, sentences: list[Sentence], findings: list[list[Finding]]) -> None:
    """ "They moved the search bar to the bottom. This is really annoying.", «…, что представляет
    большую проблему»: a statement that the words after it only call trouble is a complaint,
    though it holds no cue of its own. Its pain is labelled by its own words and quoted with
    the judgement; a pain the judgement's words made alone goes, as the same complaint."""
    for index, sentence in enumerate(sentences):
        asked = text[sentence.end : sentence.end + 2].lstrip().startswith("?")
        for k, clause in enumerate(sentence.clauses):
            relative = _TOLD_OF_BEFORE.search(text, *clause)
            if relative is not None and judges_what_came_before(
                text[relative.start("word") : clause[1]], asked=asked
            ):
                judgement = (relative.start("word"), clause[1])
                statement = _last_statement(text, (clause[0], relative.start()))
                if statement is None:
                    break
                at = index
            elif k == 0 and judges_what_came_before(
                text[clause[0] : clause[1]], asked=asked and len(sentence.clauses) == 1
            ):
                earlier = _statement_before(text, sentences, index)
                if earlier is None:
                    break
                judgement = clause
                at, statement = earlier
            else:
                continue
            if any(f.type == "pain" and statement[0] <= f.at < statement[1] for f in findings[at]):
                break
            pain = _judged_pain(text, sentences[at], statement, (statement[0], judgement[1]))
            if pain is not None:
                findings[index] = [
                    f
                    for f in findings[index]
                    if f.type != "pain" or not judgement[0] <= f.at < judgement[1]
                ]
                findings[at].append(pain)
            break


def _actual_behaviour(
    text: str, sentences: list[Sentence], findings: list[list[Finding]], sections: list[Span]
) -> None:
    """Under "Actual results" («Фактическое поведение») the template has the writer state the
    fault: each statement of the section's first paragraph is a pain though it holds no cue
    ("The label sits on top of the icon.", "No border around the table."), unless one was
    found in it already. A later paragraph there may explain, so it keeps to the rules."""
    for body in sections:
        opening = body[1] - len(text[body[0] : body[1]].lstrip())
        gap = _PARAGRAPH_BREAK.search(text, opening, body[1])
        end = gap.start() if gap else body[1]
        for index, sentence in enumerate(sentences):
            if not body[0] <= sentence.start < end:
                continue
            if _after_a_lead_in(text, body[0], sentence.start):
                continue  # "Wrong labels:" and the lines it shows: examples of one fault
            if _inside_a_quote(text, opening, sentence.start):
                continue  # the rest of a message quoted whole: one fault, told by its start
            if any(f.type in ("pain", "metric") for f in findings[index]):
                continue  # a fault found, or a measure taken ("memory use reaches 3 GB")
            if sentence.lex is lexicon_en and not reads_as_english(
                text[sentence.start : sentence.end]
            ):
                continue  # the page's own text, quoted in its language: what shows, not a fault
            statement = _first_statement(text, (sentence.start, sentence.end))
            if statement is None or tells_a_workaround(text, statement):
                continue  # «Единственный способ выйти из меню — …»: the way round, told there
            told = text[statement[0] : statement[1]]
            if says_all_is_well(told) or says_it_works(told):
                continue  # «После перезагрузки всё в порядке», "Printing works.": no fault
            if tells_only_since_when(text[statement[0] : statement[1]]):
                continue  # "It has been like this since May": when, of the fault told before
            phrase, label = _pain_label(text, statement, statement, sentence)
            if label and len(label.split()) > 1 and not fragment_reason(label):
                findings[index].append(Finding("pain", label, statement, phrase[0]))


def _says_too_little(label: str, ticket: bool) -> bool:
    """A pain that names only where a problem is, or, in a ticket, gives only a vague verdict
    on the whole page."""
    vague = ticket and gives_only_a_vague_verdict(label)
    return vague or names_only_an_area(label)


def _inside_a_quote(text: str, start: int, at: int) -> bool:
    """A quotation opened between `start` and `at` is still open at `at`."""
    before = text[start:at]
    typographic = before.count("“") > before.count("”") or before.count("«") > before.count("»")
    return typographic or before.count('"') % 2 == 1


def _after_a_lead_in(text: str, start: int, at: int) -> bool:
    """A line of the section before `at` ends on a colon: what follows it is what it shows."""
    lines = text[start:at].split("\n")[:-1]
    return any(line.rstrip().endswith(":") for line in lines if line.strip())


def _first_statement(text: str, span: Span) -> Span | None:
    """The first piece of the span, between commas or dashes, that names something and is no
    instruction (an English piece that opens on a bare verb: "Click on Quick view …")."""
    for start, end in _pieces(text, span):
        tokens = [t for t in analyse(text[start:end]) if t.pos != "PUNCT"]
        first = tokens[0] if tokens else None
        if first and first.pos == "VERB" and first.lower.isascii() and first.lower == first.lemma:
            continue
        if any(t.pos in ("NOUN", "PROPN") for t in tokens):
            return _trim(text, start, end)
    return None


# A judging clause after a comma: "…, which is annoying", «…, что очень мешает».
_TOLD_OF_BEFORE = re.compile(r",\s*(?P<word>which|что)(?![\w-])", re.IGNORECASE)

# "Although icons exist for each type, …": a concession tells what should be, not the fault.
_CONCESSION = re.compile(r"(?:хотя|although|though|even\s+though)(?![\w-])", re.IGNORECASE)


def _statement_before(text: str, sentences: list[Sentence], index: int) -> tuple[int, Span] | None:
    """The sentence a judgement points back to (past one that concedes) and the statement in it
    that the judgement is of."""
    at = index - 1
    if at > 0 and _CONCESSION.match(text, sentences[at].start):
        at -= 1
    if at < 0 or text[sentences[at].end : sentences[at].end + 2].lstrip().startswith("?"):
        return None
    statement = _last_statement(text, (sentences[at].start, sentences[at].end))
    return None if statement is None else (at, statement)


# Where a sentence's statements part: a comma, a dash between spaces, a semicolon.
_STATEMENT_BREAK = re.compile(r",|;|\s[-–—]\s")


def _pieces(text: str, span: Span) -> list[Span]:
    """The span cut at its commas, semicolons and spaced dashes."""
    breaks = list(_STATEMENT_BREAK.finditer(text, *span))
    starts = [span[0], *(m.end() for m in breaks)]
    ends = [*(m.start() for m in breaks), span[1]]
    return list(zip(starts, ends, strict=True))


def _last_statement(text: str, span: Span) -> Span | None:
    """The last piece of the span, between commas or dashes, that says something of something:
    it holds a verb and a noun ("после обновления, кнопки выглядят иначе, мельче")."""
    for start, end in reversed(_pieces(text, span)):
        tokens = analyse(text[start:end])
        if any(t.pos in ("VERB", "AUX") for t in tokens) and any(
            t.pos in ("NOUN", "PROPN") for t in tokens
        ):
            return _trim(text, start, end)
    return None


def _judged_pain(text: str, sentence: Sentence, statement: Span, quote: Span) -> Finding | None:
    english = sentence.lex.LANG == "en"
    if not_a_pain(text, statement, (sentence.start, sentence.end), english):
        return None  # "I never lose my notes, which is great" is no complaint either way
    phrase, label = _pain_label(text, statement, statement, sentence)
    if not label or len(label.split()) < 2 or fragment_reason(label):
        return None
    return Finding("pain", label, quote, phrase[0])


_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")


def _rest_of_paragraph(
    text: str, sentences: list[Sentence], findings: list[list[Finding]], index: int
) -> list[list[Finding]]:
    """The findings of the sentence at index and of those after it in its paragraph."""
    rest = [findings[index]]
    for later in range(index + 1, len(sentences)):
        if _PARAGRAPH_BREAK.search(text, sentences[later - 1].end, sentences[later].start):
            break
        rest.append(findings[later])
    return rest


def _told_again(pain: Finding, earlier: list[Finding]) -> bool:
    """A Russian pain that tells a problem of the message again in other words («терминал
    зависает» … «терминал подвисает при запуске»): the first telling stands. Sameness is the
    resolution's (kg.llm.offline.similarity), which merges such mentions across messages."""
    if not _CYRILLIC.search(pain.label):
        return False
    return any(
        _CYRILLIC.search(other.label) and same_thing(pain.label, other.label, "pain")[0]
        for other in earlier
    )


# A report's title and its body state its problem, or the goal it asks how to reach («Как
# отключить подсказки?» above «Подскажите, как отключить всплывающие подсказки»), twice.
_TOLD_TWICE_TYPES = frozenset({"pain", "job"})


def _said_again(findings: list[list[Finding]]) -> set[int]:
    """Pains a message states twice (a report's title and its body: "No update button in the
    Help menu" … "no update button"): the wording whose words the other holds all of stands,
    the one with fewer words goes. Sharing some words ("doesn't work") is not enough."""
    pains = [
        (f, content_lemmas(f.label))
        for found in findings
        for f in found
        if f.type in _TOLD_TWICE_TYPES
    ]
    dropped: set[int] = set()
    for index, (pain, words) in enumerate(pains):
        for other_index, (other, other_words) in enumerate(pains):
            if other_index == index or id(other) in dropped or len(words) < 2:
                continue
            if other.type != pain.type:
                continue
            fewer = len(words) < len(other_words) or (
                len(words) == len(other_words) and other_index < index
            )
            if (fewer and words <= other_words) or (
                other_index < index and _same_but_for_ability(words, other_words)
            ):
                dropped.add(id(pain))
                break
    return dropped


# How a failure to act is put: "can't log in", "unable to log in any more", «не удаётся
# войти», «теперь не могу войти» tell the one fault.
_ABILITY = frozenset(
    {"can", "can't", "cannot", "able", "unable", "мочь", "удаваться", "получаться"}
)

# "any more", «больше не» (read as «большой»): when, not what
_NO_LONGER = frozenset({"anymore", "longer", "больше", "большой"})


def _same_but_for_ability(words: set[str], other: set[str]) -> bool:
    kept, other_kept = words - _ABILITY - _NO_LONGER, other - _ABILITY - _NO_LONGER
    return bool(kept) and kept == other_kept and bool((words ^ other) & _ABILITY)


_TITLE = re.compile(r"\A[ \t]*(?P<title>[^\n]{1,160}?)[ \t]*\n[ \t]*\n")

_TITLE_MAX_WORDS = 20


def _title(text: str) -> re.Match[str] | None:
    """A report's title: a short first line set off by a blank line."""
    title = _TITLE.match(text)
    if title is None or len(title["title"].split()) > _TITLE_MAX_WORDS:
        return None
    return title


def _title_restated(
    text: str,
    sentences: list[Sentence],
    findings: list[list[Finding]],
    dropped: set[int],
    *,
    ticket: bool,
) -> set[int]:
    """Pains a report's title and its body both state, one of each pair to drop. A title is a
    short first line set off by a blank line; it sums up the body, often in other words or
    another language. A title that says what happens, in a clause of the body's language
    ("Attachments are not saved to the drafts folder"), is the report's own summary and stands: body
    pains that say the same in no more words go (half their words the title's), and a body
    pain whose sentence only names the title's matter tells more of it and stays ("Can't sign
    in" above "I click Sign in and nothing happens"). An English ticket reports one fault:
    when its title states it in a clause, the title is the fault and every body pain goes (the
    Russian tickets at hand state several faults in their bodies). Otherwise the title gives
    way to the body, whose wording says more ("Scrolling is broken" above "after the update
    the page does not scroll with the wheel", "Terminal problem" above anything the body
    tells)."""
    title = _title(text)
    if title is None:
        return set()
    end = title.end("title")
    heading = [
        f
        for found in findings
        for f in found
        if f.type == "pain" and id(f) not in dropped and f.quote[1] <= end
    ]
    body = [
        (f, text[sentence.start : sentence.end])
        for sentence, found in zip(sentences, findings, strict=True)
        for f in found
        if f.type == "pain"
        and id(f) not in dropped
        and f.quote[0] > end
        # «… и больше ничего не происходит»: a body pain that names nothing says less
        and not names_nothing(f.label)
    ]
    going: set[int] = set()
    if ticket and any(
        states_a_clause(pain.label) and not _says_only_it_fails(pain.label) for pain in heading
    ):
        # an English ticket reports one fault, and a title that states it in a clause is its
        # statement: what else the body says wrong tells that fault's course
        return {id(f) for f, _ in body}
    for pain in heading:
        restated = [
            f
            for f, said in body
            if _same_matter(pain.label, said)
            or (_same_matter(pain.label, f.label) and _same_script(f.label, said))
        ]
        if not restated:
            continue
        close = [f for f in restated if _restates_closely(pain.label, f.label)]
        clause = states_a_clause(pain.label) and all(
            _same_script(pain.label, f.label) for f in restated
        )
        if clause and all(
            len(content_lemmas(pain.label)) >= len(content_lemmas(f.label)) for f in close
        ):
            going |= {id(f) for f in close}
            if close or not any(_same_matter(pain.label, f.label) for f in restated):
                continue
        going.add(id(pain))
    return going


# "Shop page broken", "Site does not work properly": a title that says only that something
# fails, leaving what to the body
_VERDICT_WORDS = frozenset(
    {
        "broken",
        "break",
        "work",
        "working",
        "correctly",
        "properly",
        "wrong",
        "issue",
        "problem",
        "bug",
    }
)


# What may stand before a ticket title's words: tags ("[SM]", "[de]"), the site it is about
# ("www.example.org - "), and dashes or colons left where a web address is masked.
_TITLE_TAGS = re.compile(r"(?:\s*\[[^\]\n]{1,24}\])+")

_SITE_HEADING = re.compile(r"(?:https?://)?[\w-]+(?:\.[\w-]+)+/?\s+[-–—]\s+")

_LEADING_MARKS = re.compile(r"[\s\-–—:]*")

# the part a ticket is about, before its task: "Storage: add a retry option", "S3. Add …"
_COMPONENT_HEADING = re.compile(r"[^\s:][^:\n]{0,40}?\s?:\s+|[\w-]{1,20}\.\s+(?=[A-Z])")

# a question without its mark: "Can the sidebar keep its width", "Why does it reset", not
# "Does not upload"
_ASKS = re.compile(
    r"(?:(?:how|why|what|where|which|who)\s+)?(?:can|could|is|are|does|do|did|will|would)"
    r"\s+(?!not\b)\w",
    re.IGNORECASE,
)

# "The import should keep the folder order", "Docs need updating": what is to be, a task
_EXPECTED = re.compile(r"\b(?:should|must|needs?)\b", re.IGNORECASE)


_COURTESY_OPENERS = frozenset(("please", "pls", "plz", "kindly"))


def _title_as_fault(
    text: str, sentences: list[Sentence], findings: list[list[Finding]], dropped: set[int]
) -> tuple[int, Finding] | None:
    """A ticket's title as its pain, with the index of the sentence that holds it, when no pain
    was read in it: a tracker's summary line states the fault, often in words that carry no
    cue of trouble ("Forwarded invoices arrive as plain text"). Not a title that
    names a change to make, asks a question, says what should be, only names the matter
    ("Sorting tags") or says too little ("Page not displayed properly", whose fault the body
    tells)."""
    title = _title(text)
    if title is None:
        return None
    start, end = title.span("title")
    if any(
        f.type == "pain" and id(f) not in dropped and f.quote[1] <= end
        for found in findings
        for f in found
    ):
        return None
    first = start
    for opening in (_TITLE_TAGS, _SITE_HEADING, _LEADING_MARKS):
        matched = opening.match(text, first, end)
        first = matched.end() if matched else first
    label = " ".join(text[first:end].split())  # a masked name leaves no run of spaces
    if not label or label.endswith("?") or _ASKS.match(label) or _EXPECTED.search(label):
        return None
    heading = _COMPONENT_HEADING.match(text, first, end)
    words = analyse(text[heading.end() if heading else first : end])
    opening = next((w for w in words if w.lower not in _COURTESY_OPENERS), None)
    if opening is None or opening.lower in lexicon_en.CHANGE_VERBS:
        return None  # "Add …", "Please add …": a change asked for
    # the clause's verb follows its subject: a title's first word read as a verb opens a
    # name ("Sorting tags")
    said = label if analyse(label)[0].pos != "VERB" else " ".join(label.split()[1:])
    if _says_too_little(label, True) or not states_a_clause(said):
        return None  # "Sorting tags", "Page not displayed properly": no fault by itself
    index = next((i for i, s in enumerate(sentences) if s.start <= first < s.end), None)
    if index is None:
        return None
    return index, Finding("pain", label, (first, end), first)


def _says_only_it_fails(label: str) -> bool:
    words = content_lemmas(label)
    told = {w for w in words if w in _VERDICT_WORDS}
    return bool(told) and len(words - told) <= 2


def _restates_closely(title: str, body: str) -> bool:
    """At least half the body pain's content words are the title's, or share its roots."""
    told = content_lemmas(body)
    return bool(told) and 2 * len(_words_shared(title, body)) >= len(told)


def _words_shared(title: str, body: str) -> list[str]:
    """The body's content words that are the title's or share a root with one of them."""
    said = content_lemmas(title)
    return [b for b in content_lemmas(body) if b in said or any(_same_root(a, b) for a in said)]


def _same_script(one: str, other: str) -> bool:
    return bool(_CYRILLIC.search(one)) == bool(_CYRILLIC.search(other))


def _same_matter(title: str, body: str) -> bool:
    """A shared content word, or two languages (a report titled in one, told in another; not
    a message it quotes in another language inside a sentence of the title's). A
    Russian title often names by a noun what the body tells by a verb of the same root
    («Не работает вставка» above «текст не вставляется»): a shared root counts too."""
    if not _same_script(title, body):
        return True
    return bool(_words_shared(title, body))


_ROOT_MIN = 5  # letters: «встав-» in «вставка» and «вставляться»; «пере-» alone is a prefix

_ROOT_SHARE = 0.6  # of the shorter word

_WHOLE_ROOT_MIN = 4  # letters of a short lemma the longer one begins with


def _same_root(one: str, other: str) -> bool:
    """Two Russian lemmas that begin with the same long stem («сохранение», «сохраняться»)."""
    if not (_CYRILLIC.match(one) and _CYRILLIC.match(other)):
        return False
    shared = 0
    for a, b in zip(one, other, strict=False):
        if a != b:
            break
        shared += 1
    shorter = min(len(one), len(other))
    if shared == shorter >= _WHOLE_ROOT_MIN:
        return True  # «ввод» in «вводиться», «язык» in «языковой»: the whole shorter word
    return shared >= max(_ROOT_MIN, _ROOT_SHARE * shorter)
