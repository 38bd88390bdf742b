"""Write-time checks on what the model says, through extract_episode and the scripted server.

Plus unit tests of kg.pipeline.evidence (quote location and metric numbers).
"""

from __future__ import annotations

import pytest

from kg.ledger.episodes import EpisodeInput, record_episode
from kg.models import ExtractionRejection, LLMCall
from kg.pipeline.evidence import locate_quote, normalise, numbers_in, numbers_missing
from kg.pipeline.extract import ExtractionFailed, extract_episode

TEXT = (
    "Couriers in Almaty say the app lags on weak internet,\n"
    "so  they   call the dispatcher instead. Average delivery takes 42 minutes.\n"
    "Our route planner fixes the lag; Yandex Go offers a similar planner."
)
INVENTED = "couriers hate the colour of the buttons"


def node(ref, type_, label, quote, **extra):
    return {"ref": ref, "type": type_, "label": label, "quote": quote, **extra}


def rel(relation, source, target, quote):
    return {"relation": relation, "source": source, "target": target, "quote": quote}


PRODUCT = node("n0", "product", "Couriers app", "the app")
SEGMENT = node("n1", "segment", "Couriers in Almaty", "Couriers in Almaty")
PAIN = node("n2", "pain", "App lags on weak internet", "the app lags on weak internet")
METRIC = node(
    "n3",
    "metric",
    "Average delivery time",
    "Average delivery takes 42 minutes.",
    value="42 minutes",
)
FEATURE = node("n4", "feature", "Route planner", "Our route planner")
EXPERIENCES = rel("experiences", "n1", "n2", "Couriers in Almaty say the app lags")
SOLVES = rel("solves", "n4", "n2", "Our route planner fixes the lag")
# The quote of a relation names both ends: the lag, and the delivery time it is measured by.
MEASURED_BY = rel(
    "measured_by",
    "n2",
    "n3",
    "the app lags on weak internet, so they call the dispatcher instead. Average delivery takes",
)


@pytest.fixture
def episode(org_project):
    return record_episode(org_project, EpisodeInput(content=TEXT), enqueue=False)


def labels(outcome):
    return sorted(n.candidate.label for n in outcome.nodes)


def relation_names(outcome):
    return sorted(r.relation for r in outcome.relations)


def last_user_message(request_body):
    message = request_body["messages"][-1]
    assert message["role"] == "user"
    return message["content"]


# --- (e) a fully valid answer -----------------------------------------------------------------


def test_valid_answer_needs_exactly_one_call(openai_mode, episode):
    openai_mode.script(
        {
            "nodes": [PRODUCT, SEGMENT, PAIN, METRIC, FEATURE],
            "relations": [EXPERIENCES, SOLVES, MEASURED_BY],
        }
    )

    outcome = extract_episode(episode)

    assert openai_mode.calls == 1
    assert labels(outcome) == sorted(
        [
            "Couriers app",
            "Couriers in Almaty",
            "App lags on weak internet",
            "Average delivery time",
            "Route planner",
        ]
    )
    assert relation_names(outcome) == ["experiences", "measured_by", "solves"]
    assert outcome.dropped == []
    assert not ExtractionRejection.objects.exists()
    assert [c.pk for c in outcome.calls] == list(LLMCall.objects.values_list("pk", flat=True))
    call = outcome.calls[0]
    assert call.episode == episode and call.project == episode.project
    # The prompt carries the episode and the product name.
    user = openai_mode.requests[0]["messages"][-1]["content"]
    assert TEXT in user and "Couriers app" in user


def test_accepted_spans_point_into_the_episode(openai_mode, episode):
    # The relation quote spans a line break and a run of spaces in the episode.
    relation = rel("experiences", "n1", "n2", "weak internet, so they call the dispatcher")
    openai_mode.script({"nodes": [SEGMENT, PAIN], "relations": [relation]})

    outcome = extract_episode(episode)

    assert outcome.dropped == []
    for accepted in outcome.nodes:
        span = accepted.span
        assert TEXT[span.start : span.end] == span.text == accepted.candidate.quote
    (accepted_relation,) = outcome.relations
    span = accepted_relation.span
    assert span.text == "weak internet,\nso  they   call the dispatcher"
    assert TEXT[span.start : span.end] == span.text
    assert accepted_relation.source == ("segment", "couriers in almaty")
    assert accepted_relation.target == ("pain", "app lags on weak internet")


# --- (a) an invented quote --------------------------------------------------------------------


def test_invented_quote_is_sent_back_and_a_fixed_answer_is_accepted(openai_mode, episode):
    bad_pain = {**PAIN, "quote": INVENTED}
    first = {"nodes": [SEGMENT, bad_pain], "relations": [EXPERIENCES]}
    openai_mode.script(first, {"nodes": [SEGMENT, PAIN], "relations": [EXPERIENCES]})

    outcome = extract_episode(episode)

    assert openai_mode.calls == 2
    repair = openai_mode.requests[1]["messages"]
    assert repair[:-2] == openai_mode.requests[0]["messages"]
    assert repair[-2]["role"] == "assistant"
    assert repair[-2]["content"] == outcome.calls[0].raw_output
    reasons = last_user_message(openai_mode.requests[1])
    assert "quote not in episode" in reasons
    assert INVENTED in reasons
    # The relation depended on the rejected node: it is sent back too.
    assert "relation experiences: node 'n2' is missing or was rejected" in reasons

    assert labels(outcome) == ["App lags on weak internet", "Couriers in Almaty"]
    assert relation_names(outcome) == ["experiences"]
    assert outcome.dropped == []
    assert len(outcome.calls) == 2

    round_one = ExtractionRejection.objects.filter(episode=episode, round=1)
    assert sorted(r.item_kind for r in round_one) == ["node", "relation"]
    assert all(r.final is False for r in round_one)
    assert all(r.llm_call == outcome.calls[0] for r in round_one)
    assert not ExtractionRejection.objects.filter(round=2).exists()
    assert not ExtractionRejection.objects.filter(final=True).exists()


def test_quote_invented_twice_is_dropped_with_a_final_rejection(openai_mode, episode):
    bad_pain = {**PAIN, "quote": INVENTED}
    answer = {"nodes": [SEGMENT, bad_pain], "relations": []}
    # The repair prompt differs from the first, so the same answer is asked for again over HTTP.
    openai_mode.script(answer, answer)

    outcome = extract_episode(episode)

    assert openai_mode.calls == 2
    assert labels(outcome) == ["Couriers in Almaty"]
    (dropped,) = outcome.dropped
    assert dropped.kind == "node"
    assert dropped.item["label"] == "App lags on weak internet"
    assert "quote not in episode" in dropped.reason

    final = ExtractionRejection.objects.get(episode=episode, final=True)
    assert final.round == 2
    assert final.item_kind == "node"
    assert final.item["quote"] == INVENTED
    assert "quote not in episode" in final.reason
    assert final.llm_call == outcome.calls[1]
    assert ExtractionRejection.objects.filter(episode=episode, round=1, final=False).count() == 1


@pytest.mark.parametrize(
    "quote",
    [
        "The app lags on weak internet",  # case changed
        "the app lags on slow internet",  # a word changed
        "the app lags on weak internet!",  # punctuation added
    ],
)
def test_near_miss_quotes_are_rejected(openai_mode, episode, quote):
    openai_mode.script({"nodes": [{**PAIN, "quote": quote}]}, {"nodes": []})

    outcome = extract_episode(episode)

    assert openai_mode.calls == 2
    assert outcome.nodes == []
    assert "quote not in episode" in last_user_message(openai_mode.requests[1])


def test_quote_with_other_whitespace_and_quote_marks_is_accepted(openai_mode, episode):
    episode = record_episode(
        episode.project,
        EpisodeInput(content="Drivers said: “it’s   too\tslow” about the map."),
        enqueue=False,
    )
    openai_mode.script({"nodes": [node("n1", "pain", "Map too slow", '"it\'s too slow"')]})

    outcome = extract_episode(episode)

    assert openai_mode.calls == 1
    (accepted,) = outcome.nodes
    assert accepted.span.text == "“it’s   too\tslow”"


# --- (b) metric numbers -----------------------------------------------------------------------


def test_metric_number_not_in_its_quote_is_rejected_and_named(openai_mode, episode):
    bad_metric = {**METRIC, "value": "45 minutes"}
    openai_mode.script({"nodes": [bad_metric]}, {"nodes": [bad_metric]})

    outcome = extract_episode(episode)

    assert openai_mode.calls == 2
    reasons = last_user_message(openai_mode.requests[1])
    assert "the number(s) 45 are not in its quote" in reasons
    assert "42" not in reasons.split("Some items were rejected:")[1].split("Answer again")[0]
    assert outcome.nodes == []
    final = ExtractionRejection.objects.get(episode=episode, final=True)
    assert "45" in final.reason and "Average delivery time" in final.reason


def test_metric_number_in_its_label_is_checked_too(openai_mode, episode):
    bad_metric = {**METRIC, "label": "Average delivery time in 2024"}
    openai_mode.script({"nodes": [bad_metric]}, {"nodes": [METRIC]})

    outcome = extract_episode(episode)

    assert "the number(s) 2024 are not in its quote" in last_user_message(openai_mode.requests[1])
    assert labels(outcome) == ["Average delivery time"]


def test_metric_whose_number_is_in_the_episode_but_not_its_quote_is_rejected(openai_mode, episode):
    # 42 is in the episode, but this quote does not state it.
    bad_metric = {**METRIC, "quote": "Average delivery takes"}
    openai_mode.script({"nodes": [bad_metric]}, {"nodes": []})

    extract_episode(episode)

    assert "the number(s) 42 are not in its quote" in last_user_message(openai_mode.requests[1])


# --- (c) relations outside the ontology -------------------------------------------------------


def test_relation_outside_the_ontology_is_rejected(openai_mode, episode):
    loves = rel("loves", "n1", "n4", "Couriers in Almaty")
    answer = {"nodes": [SEGMENT, FEATURE], "relations": [loves]}
    openai_mode.script(answer, answer)

    outcome = extract_episode(episode)

    assert openai_mode.calls == 2
    assert "relation 'loves' is not in the ontology" in last_user_message(openai_mode.requests[1])
    assert outcome.relations == []
    assert labels(outcome) == ["Couriers in Almaty", "Route planner"]  # nodes stay accepted
    final = ExtractionRejection.objects.get(episode=episode, final=True)
    assert final.item_kind == "relation"
    assert final.item["relation"] == "loves"


def test_relation_with_a_disallowed_type_pair_is_rejected(openai_mode, episode):
    backwards = rel("solves", "n2", "n4", "Our route planner fixes the lag")  # pain → feature
    openai_mode.script(
        {"nodes": [PAIN, FEATURE], "relations": [backwards]},
        {"nodes": [PAIN, FEATURE], "relations": [SOLVES]},
    )

    outcome = extract_episode(episode)

    assert "relation 'solves' does not allow pain → feature" in last_user_message(
        openai_mode.requests[1]
    )
    (accepted,) = outcome.relations
    assert (accepted.relation, accepted.source[0], accepted.target[0]) == (
        "solves",
        "feature",
        "pain",
    )
    assert outcome.dropped == []


def test_relation_with_an_invented_quote_is_rejected(openai_mode, episode):
    invented = {**SOLVES, "quote": "the route planner solves lag"}
    answer = {"nodes": [PAIN, FEATURE], "relations": [invented]}
    openai_mode.script(answer, answer)

    outcome = extract_episode(episode)

    assert "relation quote not in episode" in last_user_message(openai_mode.requests[1])
    assert outcome.relations == []
    (dropped,) = outcome.dropped
    assert dropped.kind == "relation"


def test_unknown_node_type_is_rejected(openai_mode, episode):
    answer = {"nodes": [node("n1", "person", "Dispatcher", "the dispatcher")]}
    openai_mode.script(answer, answer)

    outcome = extract_episode(episode)

    assert "node type 'person' is not in the ontology" in last_user_message(openai_mode.requests[1])
    assert outcome.nodes == []


# --- (d) broken JSON --------------------------------------------------------------------------


def test_broken_json_then_valid_json_succeeds_with_two_calls(openai_mode, episode):
    broken = '{"nodes": [{"ref": "n1", "type": "pain",'
    openai_mode.script(broken, {"nodes": [PAIN]})

    outcome = extract_episode(episode)

    assert openai_mode.calls == 2
    assert labels(outcome) == ["App lags on weak internet"]
    second = openai_mode.requests[1]["messages"]
    assert second[-2] == {"role": "assistant", "content": broken}
    assert "not a valid JSON object" in last_user_message(openai_mode.requests[1])
    assert [c.parsed_ok for c in outcome.calls] == [False, True]
    assert LLMCall.objects.filter(episode=episode).count() == 2


def test_broken_json_twice_fails(openai_mode, episode):
    openai_mode.script("I think the nodes are: pain", "{nodes: []}")

    with pytest.raises(ExtractionFailed, match="not valid JSON twice"):
        extract_episode(episode)

    assert openai_mode.calls == 2
    assert LLMCall.objects.filter(episode=episode, parsed_ok=False).count() == 2


def test_rerun_replays_recorded_answers_without_http(openai_mode, episode):
    bad_pain = {**PAIN, "quote": INVENTED}
    openai_mode.script({"nodes": [SEGMENT, bad_pain]}, {"nodes": [SEGMENT, PAIN]})
    first = extract_episode(episode)

    again = extract_episode(episode)

    assert openai_mode.calls == 2  # the second run paid nothing
    assert labels(again) == labels(first)
    assert ExtractionRejection.objects.filter(episode=episode, round=1).count() == 1


# --- kg.pipeline.evidence ---------------------------------------------------------------------


class TestLocateQuote:
    def test_exact_quote(self):
        text = "The app lags on weak internet."
        span = locate_quote("lags on weak", text)
        assert (span.start, span.end, span.text) == (8, 20, "lags on weak")

    def test_whitespace_runs_and_line_breaks_are_tolerated(self):
        text = "Couriers say\n\n  the app   lags\ton weak internet."
        span = locate_quote("the app lags on weak internet", text)
        assert span is not None
        assert span.text == "the app   lags\ton weak internet"
        assert text[span.start : span.end] == span.text

    def test_quote_with_extra_whitespace_matches_single_spaces(self):
        text = "the app lags on weak internet"
        span = locate_quote("  the app\n lags   on weak  ", text)
        assert span is not None and span.text == "the app lags on weak"
        assert (span.start, span.end) == (0, 20)

    def test_curly_and_straight_quote_marks_are_the_same(self):
        text = "He said “it’s slow” twice."
        span = locate_quote('"it\'s slow"', text)
        assert span is not None
        assert span.text == "“it’s slow”"
        assert text[span.start : span.end] == span.text

        straight = 'He said "it\'s slow" twice.'
        span = locate_quote("“it’s slow”", straight)
        assert span is not None and span.text == '"it\'s slow"'

    def test_guillemets_match_other_double_quotes(self):
        text = "Курьеры пишут: «приложение тормозит» каждый день."
        span = locate_quote('"приложение тормозит"', text)
        assert span is not None
        assert span.text == "«приложение тормозит»"
        assert text[span.start : span.end] == span.text
        assert locate_quote("“приложение тормозит”", text) is not None

    def test_case_is_not_tolerated(self):
        assert locate_quote("The App Lags", "the app lags on weak internet") is None

    def test_changed_or_extra_words_are_not_tolerated(self):
        text = "the app lags on weak internet"
        assert locate_quote("the app lags on slow internet", text) is None
        assert locate_quote("the app often lags on weak internet", text) is None
        assert locate_quote("the app lags on weak internet connections", text) is None

    def test_punctuation_is_not_tolerated(self):
        assert locate_quote("lags, on weak", "the app lags on weak internet") is None

    def test_empty_or_blank_quote_is_not_found(self):
        assert locate_quote("", "anything") is None
        assert locate_quote(" \n\t", "anything at all") is None

    def test_offsets_after_collapsed_whitespace_map_back(self):
        text = "a\n\n\n  b   c  d e"
        span = locate_quote("c d e", text)
        assert span is not None
        assert span.start == text.index("c")
        assert span.end == len(text)
        assert span.text == "c  d e"

    def test_normalise(self):
        assert normalise("  «a»\n\n b’s  ") == '"a" b\'s'


class TestNumbers:
    def test_numbers_in_unifies_decimal_commas(self):
        assert numbers_in("from 1,5 to 2.75 and 1,200 users") == ["1.5", "2.75", "1200"]

    def test_number_missing_from_the_quote_is_named(self):
        assert numbers_missing("45 minutes", "deliveries take 42 minutes") == ["45"]
        assert numbers_missing("churn 5% in Q3", "churn was 5% last quarter") == ["3"]

    def test_numbers_present_are_not_missing(self):
        assert numbers_missing("42 minutes", "deliveries take 42 minutes") == []
        assert numbers_missing("no numbers", "no numbers here either") == []

    def test_decimal_comma_equals_decimal_point(self):
        assert numbers_missing("1.5 hours", "about 1,5 hours") == []
        assert numbers_missing("1,5 hours", "about 1.5 hours") == []

    def test_thousands_separator_may_be_dropped(self):
        assert numbers_missing("1200 orders", "1,200 orders a day") == []
        assert numbers_missing("1,200 orders", "1200 orders a day") == []

    def test_every_missing_number_is_listed(self):
        assert numbers_missing("from 10 to 20 in 30 days", "from 10 to 25 in 40 days") == [
            "20",
            "30",
        ]

    def test_a_decimal_is_not_the_integer_of_its_digits(self):
        assert numbers_missing("25%", "conversion grew from 2.5% to 3%") == ["25"]
        assert numbers_missing("2.5%", "conversion grew from 25% to 30%") == ["2.5"]

    def test_grouped_thousands_equal_plain_numbers(self):
        assert numbers_missing("1200", "1 200 рублей в месяц") == []
        assert numbers_missing("1,200 users", "1200 users") == []
        assert numbers_missing("2,5", "в 2.5 раза") == []
