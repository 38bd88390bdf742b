"""The pipeline against the scripted OpenAI-compatible server: how many calls, and for what."""

from __future__ import annotations

import json

import pytest

from kg.graph import Evidence, NodeRecord, store
from kg.graph.records import graph_time
from kg.llm.prompts.extraction import MAX_KNOWN_SUBJECTS
from kg.models import LLMCall, ResolutionDecision
from kg.pipeline import candidates
from kg.pipeline.extract import extract_episode, known_subjects
from kg.pipeline.ingest import episode_ingest
from tests.kg.pipeline_helpers import make_project, node_record, record_messages

pytestmark = pytest.mark.django_db

MESSAGES = [
    {"at": "2026-03-01T10:00:00Z", "text": "Couriers say the app lags on weak internet."},
    {"at": "2026-03-02T10:00:00Z", "text": "Again: the app lags on weak internet."},
    {"at": "2026-03-03T10:00:00Z", "text": "The app is slow on bad internet, says Oleg."},
    {"at": "2026-03-04T10:00:00Z", "text": "Pricing is confusing for fleet owners."},
]


def _pain(label: str, quote: str) -> dict:
    return {"nodes": [{"ref": "n1", "type": "pain", "label": label, "quote": quote}]}


def test_one_extraction_per_episode_and_confirmation_only_when_ambiguous(graph, openai_mode):
    project = make_project("scripted", name="RouteMate")
    episodes = record_messages(project, [*MESSAGES, *LATER])
    openai_mode.script(
        _pain("app lags on weak internet", "the app lags on weak internet"),  # new
        _pain("app lags on weak internet", "the app lags on weak internet"),  # exact: no model
        # Offered #1 in the extraction prompt, the model says it is #1: no confirmation.
        _same("app is slow on bad internet", "The app is slow on bad internet", same_as=1),
        _pain("pricing is confusing", "Pricing is confusing"),  # far from anything: new
        # #1 was not offered (the message shares no word with it), the label is in the
        # ambiguous band (by its meaning): the one confirmation.
        _pain(SLUGGISH, "the application painfully sluggish on a poor connection"),
        {"answers": [{"question": 1, "same": True, "reason": "same lag"}]},
    )
    for episode in episodes:
        episode_ingest(episode.pk)

    assert openai_mode.calls == 6
    recorded = list(LLMCall.objects.order_by("id").values_list("operation", flat=True))
    assert recorded == ["extraction"] * 5 + ["resolution_batch"]
    third = openai_mode.requests[2]["messages"][-1]["content"]
    assert "#1 pain: app lags on weak internet" in third
    pains = store.list_nodes(project.graph_scope, "pain")
    assert sorted(n.label for n in pains) == ["app lags on weak internet", "pricing is confusing"]
    lag = next(n for n in pains if n.label.startswith("app lags"))
    assert {e.episode_number for e in lag.evidence} == {1, 2, 3, 5}
    assert lag.aliases == ["app is slow on bad internet", SLUGGISH]
    methods = dict(ResolutionDecision.objects.values_list("episode__number", "method"))
    assert methods == {1: "new", 2: "exact", 3: "llm", 4: "new", 5: "llm"}


LATER = [
    {
        "at": "2026-03-05T10:00:00Z",
        "text": "Oleg calls the application painfully sluggish on a poor connection.",
    }
]
SLUGGISH = "application painfully sluggish on poor connection"


def test_an_episodes_ambiguous_pairs_are_confirmed_in_one_call(graph, openai_mode):
    project = make_project("together", name="RouteMate")
    episodes = record_messages(project, [MESSAGES[0], MESSAGES[3], *TWO_AMBIGUOUS])
    both = {
        "nodes": [
            {"ref": "n1", "type": "pain", "label": SLUGGISH,
             "quote": "the application painfully sluggish on a poor connection"},
            {"ref": "n2", "type": "pain", "label": "the prices perplex drivers",
             "quote": "the prices perplex drivers"},
        ]
    }  # fmt: skip
    openai_mode.script(
        _pain("app lags on weak internet", "the app lags on weak internet"),
        _pain("pricing baffles fleet owners", "Pricing is confusing for fleet owners"),
        both,
        # The lag is the same, the prices are not the pricing; a stray number is ignored.
        {
            "answers": [
                {"question": 1, "same": True, "reason": "same lag"},
                {"question": 2, "same": False, "reason": "other subject"},
                {"question": 9, "same": True, "reason": "no such question"},
            ]
        },
    )
    for episode in episodes:
        episode_ingest(episode.pk)

    assert openai_mode.calls == 4
    recorded = list(LLMCall.objects.order_by("id").values_list("operation", flat=True))
    assert recorded == ["extraction"] * 3 + ["resolution_batch"]
    asked = openai_mode.requests[3]["messages"][-1]["content"]
    assert asked.count("--- question") == 2
    assert '"app lags on weak internet"' in asked and '"pricing baffles fleet owners"' in asked
    pains = {n.label: n for n in store.list_nodes(project.graph_scope, "pain")}
    assert sorted(pains) == [
        "app lags on weak internet",
        "pricing baffles fleet owners",
        "the prices perplex drivers",
    ]
    assert pains["app lags on weak internet"].aliases == [SLUGGISH]
    methods = dict(ResolutionDecision.objects.values_list("candidate_label", "method"))
    assert methods[SLUGGISH] == "llm"
    assert methods["the prices perplex drivers"] == "new"


TWO_AMBIGUOUS = [
    {
        "at": "2026-03-05T10:00:00Z",
        "text": "Oleg finds the application painfully sluggish on a poor connection; "
        "the prices perplex drivers.",
    }
]


def _same(label: str, quote: str, same_as: int) -> dict:
    answer = _pain(label, quote)
    answer["nodes"][0]["same_as"] = same_as
    return answer


def test_invented_quote_and_number_never_reach_the_graph(graph, openai_mode):
    project = make_project("inventions", name="RouteMate")
    [episode] = record_messages(
        project, [{"at": "2026-03-01T10:00:00Z", "text": "About 40% of orders are late."}]
    )
    invented = {
        "nodes": [
            {
                "ref": "n1",
                "type": "metric",
                "label": "45% of orders are late",
                "value": "45%",
                "quote": "40% of orders are late",
            },
            {
                "ref": "n2",
                "type": "pain",
                "label": "couriers are rude",
                "quote": "couriers are rude to customers",
            },
        ]
    }
    openai_mode.script(invented, invented)  # the repair round repeats the inventions
    episode_ingest(episode.pk)
    assert store.list_nodes(project.graph_scope) == []
    assert episode.rejections.filter(final=True).count() == 2


# --- the project's opinion subjects go into the extraction prompt -----------------------------


def _opinion(node_type: str, label: str, quote: str, subject: str, stance: str) -> dict:
    node = {"ref": "n1", "type": node_type, "label": label, "quote": quote}
    return {"nodes": [{**node, "subject": subject, "stance": stance}]}


def _known(request_body: dict) -> list[str] | str:
    user = request_body["messages"][-1]["content"]
    (line,) = [x for x in user.splitlines() if x.startswith("Known subjects: ")]
    value = line.removeprefix("Known subjects: ")
    return value if value == "none yet" else json.loads(value)


def test_subjects_of_earlier_episodes_are_sent_with_the_next_one(graph, openai_mode):
    project = make_project("subjects", name="RouteMate")
    first, second = record_messages(
        project,
        [
            {"at": "2026-03-01T10:00:00Z", "text": "For fleet owners the price matters most."},
            {"at": "2026-03-02T10:00:00Z", "text": "Now they say price does not matter."},
        ],
    )
    openai_mode.script(
        _opinion("insight", "price matters most", "the price matters most", "price", "positive"),
        {"nodes": []},
    )
    episode_ingest(first.pk)
    episode_ingest(second.pk)

    assert _known(openai_mode.requests[0]) == "none yet"
    assert _known(openai_mode.requests[1]) == ["price"]

    # A retry of the first episode builds the same prompt, although the graph now holds its own
    # subject, so the recorded answer serves it without a model call.
    again = extract_episode(first)
    assert openai_mode.calls == 2
    assert [n.candidate.subject for n in again.nodes] == ["price"]


def test_only_episodes_before_in_replay_order_lend_their_subjects(graph, openai_mode):
    project = make_project("replay-order", name="RouteMate")
    early, late, last = record_messages(
        project,
        [
            {"at": "2026-03-01T10:00:00Z", "text": "Pricing confuses fleet owners."},
            {"at": "2026-03-05T10:00:00Z", "text": "Dispatchers care most about sync speed."},
            {"at": "2026-03-09T10:00:00Z", "text": "Nothing new today."},
        ],
    )
    openai_mode.script(
        _opinion(
            "insight",
            "care most about sync speed",
            "care most about sync speed",
            "speed",
            "positive",
        ),
        _opinion(
            "pain",
            "pricing confuses fleet owners",
            "Pricing confuses fleet owners",
            "price",
            "negative",
        ),
        {"nodes": []},
    )
    episode_ingest(late.pk)  # processed first, but said after `early`
    episode_ingest(early.pk)
    episode_ingest(last.pk)

    assert _known(openai_mode.requests[0]) == "none yet"
    # kg_rebuild replays `early` before `late`: what `late` said must not shape early's prompt.
    assert _known(openai_mode.requests[1]) == "none yet"
    assert _known(openai_mode.requests[2]) == ["price", "speed"]


def test_known_subjects_are_ranked_by_use_capped_and_scoped(graph, openai_mode):
    project = make_project("many-subjects", name="RouteMate")
    before, current = record_messages(
        project,
        [
            {"at": "2026-03-01T10:00:00Z", "text": "Opinions were collected."},
            {"at": "2026-03-02T10:00:00Z", "text": "More opinions."},
        ],
    )
    openai_mode.script({"nodes": []})
    episode_ingest(before.pk)  # processed, with nothing of its own

    subjects = (
        ["popular"] * 3
        + ["common"] * 2
        + [f"s{i:02d}" for i in range(MAX_KNOWN_SUBJECTS + 3)]
        + ["a whole sentence the model wrote where a short subject belonged"] * 4
    )
    nodes = [_node(project, n, subject, before) for n, subject in enumerate(subjects, start=1)]
    nodes.append(_node(project, 900, "own", current))  # backed only by the episode extracted
    store.write_nodes(project.graph_scope, nodes)
    candidates.index_nodes(project, nodes)
    other = make_project("elsewhere", name="RouteMate")
    elsewhere = [_node(other, n, "elsewhere", before) for n in range(1, 9)]
    store.write_nodes(other.graph_scope, elsewhere)
    candidates.index_nodes(other, elsewhere)

    expected = ["popular", "common"] + [f"s{i:02d}" for i in range(MAX_KNOWN_SUBJECTS - 2)]
    assert known_subjects(current) == expected

    openai_mode.script({"nodes": []})
    extract_episode(current)
    assert _known(openai_mode.requests[-1]) == expected


def _node(project, number: int, subject: str, episode) -> NodeRecord:
    at = graph_time(episode.valid_at)
    return NodeRecord(
        uid=f"{project.slug}-{number}",
        number=number,
        type="insight",
        label=f"opinion {number}",
        key=f"opinion {number}",
        valid_at=at,
        subject=subject,
        stance="positive",
        evidence=[
            Evidence(
                episode_uid=str(episode.uid),
                episode_number=episode.number,
                quote="Opinions",
                start=0,
                end=8,
                valid_at=at,
            )
        ],
    )


def test_the_extraction_call_is_shown_the_namesakes_of_what_the_message_mentions(openai_mode):
    from kg.pipeline.proposal import offered_nodes

    project = make_project("namesakes")
    crowd = [
        node_record(i, f"booking page freezes on {place}", "pain")
        for i, place in enumerate(["mondays", "fridays", "phones", "tablets", "laptops"], 1)
    ]
    crowd += [
        node_record(i, f"booking page freezes for {who}", "pain")
        for i, who in enumerate(
            ["guests", "admins", "owners", "staff", "chefs", "hosts", "vets"], 6
        )
    ]
    namesake = node_record(20, "tutors in Leeds", "segment")
    candidates.index_nodes(project, [*crowd, namesake])
    [episode] = record_messages(
        project,
        [{"text": "Tutors in York say the booking page freezes.", "at": "2026-02-01T10:00:00Z"}],
    )

    by_words = candidates.nodes_for_text(project, episode.content)
    assert len(by_words) == 12 and namesake.uid not in {n.uid for n in by_words}
    offered = offered_nodes(episode)
    assert namesake.uid in {n.uid for n in offered}
    assert [n.uid for n in offered[:12]] == [n.uid for n in by_words]  # the text's own first
