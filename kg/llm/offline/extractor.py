"""Rule-based extraction for the offline engine, in English and Russian: the entry point.

`extract_offline` reads a message once: it blanks markup (markup), cuts sentences and clauses
(sentences), runs every finding rule on each sentence (`_find_all`: segments, pains,
features, jobs and alternatives, competitors, findings) and draws relations only between
nodes of one sentence (findings). Every quote is a slice of the original text, so the
write-time check that quotes are verbatim always holds; quotes are as short as still reads as
a statement, and never evidence for two nodes of one type.
Example: "As a driver I can't see the route at night" gives the segment "drivers", the pain
"can't see the route at night" and the feature "see the route".
"""

from __future__ import annotations

from kg import language
from kg.language import vectors
from kg.llm.offline import ahead, lexicon_en, lexicon_ru, report_layout, report_ru, speakers
from kg.llm.offline.alternatives import _alternatives, _jobs, _triggers
from kg.llm.offline.clauses import user_story
from kg.llm.offline.features import _features
from kg.llm.offline.findings import (
    _Answer,
    _carried_segment,
    _findings,
    _goals,
    _insights,
    _label_problem,
    _link_risk_to_previous,
    _link_sentence,
    _markets,
    _metrics,
    _risks,
    _story,
)
from kg.llm.offline.gate import gate_answer
from kg.llm.offline.label_discipline import disciplined, unmasked
from kg.llm.offline.labels import (
    asks_a_fix_of_nothing,
    names_nothing,
    points_back_at_a_problem,
    reads_as_english,
    says_only_something_is_wrong,
    tells_a_dead_link,
    tells_of_the_tracker,
    tells_only_an_error_page,
)
from kg.llm.offline.markup import entity_spans, mask_markup, read_entities
from kg.llm.offline.named_organisations import (
    names_an_organisation,
    organisation_findings,
    pains_without_the_company,
)
from kg.llm.offline.organisations import (
    _competitors,
    _name_key,
    _names_only_the_product,
    _only,
    _product_mention,
)
from kg.llm.offline.pains import (
    _ABLE_AFTER,
    _AN_EXAMPLE,
    _REPRODUCED_EN,
    _TRIED_REMEDY,
    _a_tool_used,
    _names_a_task,
    _pains,
    _points_onward,
    _restated,
    _the_writers_aim,
)
from kg.llm.offline.reading import polarity
from kg.llm.offline.requests import request_spans
from kg.llm.offline.restatements import (
    _actual_behaviour,
    _judged_statements,
    _rest_of_paragraph,
    _said_again,
    _says_too_little,
    _title_as_fault,
    _title_restated,
    _told_again,
)
from kg.llm.offline.segments import _segments
from kg.llm.offline.sentences import _SHARE, Finding, Sentence, _Referent, _sentences
from kg.llm.prompts.extraction_models import ExtractionRequest, ExtractionResponse


def load_models() -> None:
    """Load the language models and the sentiment lexicon the rules read with (once per
    process; see kg.language.load_models)."""
    language.load_models()
    polarity("fine")
    vectors.available()  # the word vectors that tell a pain told again in other words


def extract_offline(request: ExtractionRequest) -> ExtractionResponse:
    """Nodes and relations for one message: the rules' candidates less those the learned gate
    (kg.llm.offline.gate) scores as no real finding of their type."""
    made_ahead = ahead.given_answer(request)  # by another process, for the same inputs
    if made_ahead is not None:
        return made_ahead
    return gate_answer(propose_offline(request), request.language, request.records)


def propose_offline(request: ExtractionRequest) -> ExtractionResponse:
    """Candidate nodes and relations for one message, by rules only."""
    text = request.text
    if not text.strip():
        return ExtractionResponse()
    answer = _Answer(text, entity_spans(text))
    referent: _Referent | None = None
    pains: list[Finding] = []
    # the rules read quotes and apostrophes written as "&quot;" and no markup; quotes are
    # still cut from the original (answer.text) at the same offsets
    raw = read_entities(text)
    text = mask_markup(raw)
    # A report's template, in either language: what was expected, the environment and the
    # headings state no problem; the reproduction steps name no group of people, a workaround
    # the writer uses asks for no feature, and what actually happens is the fault.
    russian = request.language.lower().startswith("ru")
    steps = report_layout.steps(text)
    # a step's action or a part it clicks is how to get there, not a capability asked for
    # nor a measure: "wait 30 seconds" sets the fault up
    layout_drops = [(kind, s) for s in steps for kind in ("segment", "feature", "metric")]
    layout_drops += [("feature", s) for s in report_layout.workarounds(text)]
    actual = report_layout.actual_behaviour(text)
    # a ticket, said so by its import or laid out as one
    report = request.records == "bug_report" or report_layout.is_a_report(text)
    expected = _only(text, report_layout.expected_behaviour(text))
    text = report_layout.mask_layout(text, raw)
    sentences = list(_sentences(text, request.language))
    # the project's own names: its product's, and its name even when that only repeats the
    # address ("Spotify" of the project spotify), which names the project, never a rival of it
    own = {_name_key(n) for n in (request.product, request.project_name) if n.strip()}
    product = request.product.strip()
    findings = [
        _find_all(text, sentence, product, own, mentions=not report) for sentence in sentences
    ]
    # what no label may be, read in the text before its layout was blanked (a statute's
    # "U.S.C." reads as a code name there)
    findings = [
        disciplined(text, raw, sentence, found)
        for sentence, found in zip(sentences, findings, strict=True)
    ]
    if expected.strip():
        # "Expected: … Opera 102 shows the chart correctly": what should happen states no
        # fault, but a product where it does happen is a competitor all the same
        compared = [
            (sentence, _competitors(expected, sentence, own, []))
            for sentence in _sentences(expected, request.language)
        ]
        pairs = sorted(
            [*zip(sentences, findings, strict=True), *compared], key=lambda p: p[0].start
        )
        sentences, findings = [p[0] for p in pairs], [p[1] for p in pairs]
    if report:
        # a ticket names the broken part inside its pain; its features are the ones it asks for;
        # a remedy it tried that did not help tells how the fault resists, not another fault
        findings = [
            [
                f
                for f in found
                if (f.type != "feature" or f.origin == "planned")
                and not (f.type == "pain" and _TRIED_REMEDY.search(f.label))
                and not (f.type == "pain" and not russian and _names_a_task(text, f))
                # a ticket tells what goes wrong, not who its customers are nor what they are
                # after: the people it names are its writer's colleagues or its code's parts,
                # its needs and purposes are steps and work on the code
                and f.type != "segment"
                and (f.type != "job" or _the_writers_aim(text, f))
                # its way round the fault is one it tells as such; a tool or a medium it names
                # ("a spreadsheet", "Excel") is a part or a setting of the report
                and (f.type != "alternative" or f.origin == "workaround")
                # "we use Maven", «использую Docker»: a ticket's tools, no rival product
                and not (f.type == "competitor" and _a_tool_used(text, f))
                # "folders like Drafts", "including Bookmarks": an example of the report's own
                # things, no rival
                and not (f.type == "competitor" and _AN_EXAMPLE.match(text, f.quote[0]))
                # "the storage layer provides …", «X умеет …»: what a product of the report can
                # do, no rival
                # (read in the raw text: the expected results are masked in `text`)
                and not (f.type == "competitor" and _ABLE_AFTER.match(raw, f.at + len(f.label)))
            ]
            for found in findings
        ]
    findings = [
        [f for f in found if not any(f.type == t and s <= f.at < e for t, (s, e) in layout_drops)]
        for found in findings
    ]
    # «2. Запустить задачу, которая не существует»: a step's setup, not what goes wrong
    findings = [
        [
            f
            for f in found
            if f.type != "pain" or not report_layout.in_a_step_to_do(text, steps, f.at)
        ]
        for found in findings
    ]
    _judged_statements(text, sentences, findings)
    _actual_behaviour(text, sentences, findings, actual)
    # "Problem with extensions" above the report that says what goes wrong: the specific
    # statement carries the pain, the one that only names where adds nothing; in a ticket, so
    # does "Page not displaying properly" beside the words of what is wrong.
    specific = any(
        f.type == "pain" and not _says_too_little(f.label, report)
        for found in findings
        for f in found
    )
    said_again = _said_again(findings)
    # «Из-за этого я не могу работать» after the fault: its consequence, when a fault is told
    consequences = {
        id(f)
        for sentence, found in zip(sentences, findings, strict=True)
        for f in found
        if f.type == "pain"
        and russian
        and report_ru.tells_a_consequence(text, (sentence.start, sentence.end), f.quote, f.at)
    }
    if not any(f.type == "pain" and id(f) not in consequences for found in findings for f in found):
        consequences = set()
    # "Dead link to the FAQ" … "Page not found": the page a dead link opens is that one fault
    all_pains = [f for found in findings for f in found if f.type == "pain"]
    error_pages: set[int] = set()
    if any(tells_a_dead_link(f.label) for f in all_pains):
        error_pages = {id(f) for f in all_pains if tells_only_an_error_page(f.label)}
    vague = {id(f) for f in all_pains if specific and _says_too_little(f.label, report)}
    if report and not russian:
        # an English ticket's title states its fault, in words the rules may know no cue in
        # ("Attachments arrive renamed"): when nothing in it reads as a pain, it is the pain
        title_fault = _title_as_fault(
            text, sentences, findings, said_again | consequences | error_pages | vague
        )
        if title_fault is not None:
            index, fault = title_fault
            findings[index].append(fault)
            all_pains.append(fault)
    # a consequence restates no title, nor does the error page a dead link opens: the title
    # stays the problem's statement; a title that says too little ("Some missing items") is
    # none, the body tells the fault
    said_again |= _title_restated(
        text,
        sentences,
        findings,
        said_again | consequences | error_pages | vague,
        ticket=report and not russian,
    )
    # "Please fix it.": a request to repair naming nothing, only worth a pain when alone
    empty_fixes = {id(f) for f in all_pains if asks_a_fix_of_nothing(f.label)}
    told_pain = any(id(f) not in empty_fixes for f in all_pains)
    # who speaks in each sentence: an interview's header, a speaker's label, the interviewer
    spoken = speakers.turns(text, sentences, findings)
    for index, (sentence, candidates) in enumerate(zip(sentences, findings, strict=True)):
        found: list[Finding] = []
        for item in candidates:
            if item.type == "pain" and specific and _says_too_little(item.label, report):
                continue
            if (
                item.type == "pain"
                and sentence.lex is lexicon_ru
                and report_ru.tells_an_unnamed_error(item.label)
                and any(
                    f.type == "pain"
                    and f is not item
                    and not report_ru.tells_an_unnamed_error(f.label)
                    for other in _rest_of_paragraph(text, sentences, findings, index)
                    for f in other
                )
            ):
                continue  # «Выдаёт ошибку в коде.» before the sentence that tells which
            if (
                item.type == "pain"
                and names_nothing(item.label)
                and any(
                    f.type == "pain" and f is not item and not names_nothing(f.label)
                    for other in findings
                    for f in other
                )
            ):
                continue  # "Не работает" above the report that says what does not
            if (
                item.type == "pain"
                and sentence.lex is lexicon_ru
                and (
                    report_ru.tells_when_it_broke(item.label)
                    or report_ru.tells_only_the_impact(
                        item.label, text[sentence.start : sentence.end]
                    )
                )
                and any(
                    f.type == "pain"
                    and f is not item
                    and not report_ru.tells_when_it_broke(f.label)
                    for other in findings
                    for f in other
                )
            ):
                continue  # «сломалось после обновления», «это мешает» beside what broke
            if item.type == "pain" and says_only_something_is_wrong(item.label):
                continue
            if report and item.type == "pain" and _TRIED_REMEDY.search(item.label):
                continue  # a remedy tried in vain, told in the actual results too
            if item.type == "pain" and tells_of_the_tracker(item.label):
                continue  # "as I was about to file the bug": the ticket, not a fault
            if item.type == "pain" and points_back_at_a_problem(item.label):
                continue  # "the same issue happens in Firefox": where again, not what
            if id(item) in error_pages:
                continue  # "Page not found" under the dead link that opens it
            if id(item) in empty_fixes and told_pain:
                continue  # "Please fix it." after the sentence that says what is broken
            if id(item) in consequences:
                continue
            if id(item) in said_again:
                continue
            if item.type == "pain":
                if _restated(text, sentence, item, pains) or _told_again(item, pains):
                    continue
                pains.append(item)
            found.append(item)
        turn = spoken[index]
        if turn is not None and turn.researcher:
            found = [f for f in found if f.type not in _STUDY_QUESTION_DROPS]
        # pains made after the sentence rules (a ticket's title, its actual results) obey
        # the same: no mask, date or address in a label
        found = [kept for f in found if (kept := unmasked(f)) is not None]
        reporter = speakers.reported(text, sentence, found)
        if reporter is not None:
            found = speakers.without_the_report(text, reporter[1], found)
        for item in found:
            answer.node(item)
        carried = _carried_segment(text, sentence, referent)
        if turn is not None and turn.segment is not None and reporter is None:
            carried = (turn.start, turn.segment)  # the speaker of the notes it stands under
        actors = speakers.actors_of(turn, reporter[0] if reporter else None, found)
        _link_sentence(answer, text, sentence, actors, carried)
        _link_risk_to_previous(answer, sentence, found, referent)
        referent = _Referent(sentence.start, found, carried)
    return ExtractionResponse(nodes=answer.nodes, relations=answer.relations)


# An interviewer's line asks; it states nothing about the people studied.
_STUDY_QUESTION_DROPS = frozenset(("pain", "feature", "job", "segment", "goal", "metric"))


def _find_all(
    text: str, sentence: Sentence, product: str, own: set[str], *, mentions: bool = True
) -> list[Finding]:
    """What one sentence says. Without `mentions` the features are only those asked for or
    offered: a ticket's parts are named inside its pains, so they are not read as features."""
    if sentence.lex is lexicon_en and not reads_as_english(text[sentence.start : sentence.end]):
        return []  # a page's text in Dutch quoted in the report: the rules read no other tongue
    story = user_story(text, (sentence.start, sentence.end))
    if story is not None:
        return _story(text, sentence, story)
    goals = _goals(text, sentence)
    risks = _risks(text, sentence)
    goal_spans = [g.quote for g in goals]
    # A goal's or a risk's numbers are a target or a threshold, not a measurement.
    planned_spans = goal_spans + [r.quote for r in risks]
    alternatives = _alternatives(text, sentence, own)
    competitors = _competitors(text, sentence, own, alternatives)
    # companies a customer's text names by their role (a ticket's are its tools and parts)
    organisations = organisation_findings(text, sentence, own, competitors) if mentions else []
    # what the sentence asks for: a feature for _features, and no job for _jobs
    requests = request_spans(text, (sentence.start, sentence.end), sentence.lex.LANG == "en")
    jobs = _jobs(text, sentence, [cue for cue, _ in requests])
    # a ticket names no group of customers (its segments are dropped): not read for them
    segments = _segments(text, sentence) if mentions else []
    # What a group of customers named before it needs or tries to do is its job ("night nurses
    # need to swap shifts"): its words name no feature as well.
    groups_jobs = [(j.at, j.quote[1]) for j in jobs if any(g.at < j.at for g in segments)]
    metrics = _metrics(text, sentence, planned_spans)
    # A goal's or a risk's words, and the things a share is counted of, name what is aimed
    # at or counted ("halve missed bookings", "a third of invoices are paid late"), not a
    # function of the product. A time measured may be a function's own ("needs a minute to
    # open").
    counted = planned_spans + [
        (m.at, m.at + len(m.label)) for m in metrics if _SHARE.search(m.value)
    ]
    features = [
        f
        for f in _features(
            text, sentence, requests, competitors, planned_spans, alternatives, mentions=mentions
        )
        if not any(s <= f.at < e for s, e in groups_jobs)
        and (f.origin == "planned" or not any(s <= f.at < e for s, e in counted))
        and not _names_only_the_product(f.label, own)
        # "reproduces regardless of ETP", "the following changeset": how the fault shows, or a
        # pointer to words after it, not a function of the product
        and not _REPRODUCED_EN.search(f.label)
        and not report_ru.tells_reproduction(f.label)
        and not _points_onward(text, f)
        and not names_an_organisation(f.label, organisations)
    ]
    found = [
        *_markets(text, sentence, product),
        *_insights(text, sentence),
        *_findings(text, sentence),
        *segments,
        *_pains(text, sentence, goal_spans, alternatives, competitors),
        *jobs,
        *_triggers(text, sentence),
        *alternatives,
        *competitors,
        *organisations,
        *features,
        *metrics,
        *goals,
        *risks,
    ]
    found = pains_without_the_company(text, found) if organisations else found
    if product and found and any(f.type in ("risk", "competitor") for f in found):
        found.extend(_product_mention(text, sentence, product, found))
    # A label must be a whole phrase: never a fragment, a web address or a table row; a
    # metric's must say what it counts.
    found = [f for f in found if not _label_problem(f)]
    # A pain or a job is a clause: one word ("startup", "load") does not say what goes wrong
    # or what someone is trying to do.
    found = [f for f in found if f.type not in ("pain", "job") or len(f.label.split()) > 1]
    return sorted(found, key=lambda f: f.at)
