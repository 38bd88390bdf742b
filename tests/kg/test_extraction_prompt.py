"""What the extraction call sends a real model: definitions, enums, the project name, subjects.

Checked on the request the scripted OpenAI-compatible server received from the real client.
"""

from __future__ import annotations

import json

import pytest

from kg.ledger.episodes import EpisodeInput, record_episode
from kg.llm.prompts import extraction
from kg.llm.prompts.extraction import (
    GENERAL_RULES,
    MAX_KNOWN_SUBJECTS,
    NODE_TYPE_DEFINITIONS,
    RELATION_DEFINITIONS,
    LabelForm,
)
from kg.llm.prompts.extraction_models import ExtractionRequest
from kg.models import ExtractionRejection
from kg.ontology import NODE_TYPES, RELATIONS, NodeType
from kg.pipeline.extract import extract_episode

TEXT = "Dispatchers in Lyon say the route list reloads every few minutes."
PAIN = {
    "ref": "n1",
    "type": "pain",
    "label": "route list reloads every few minutes",
    "quote": "the route list reloads every few minutes",
}


@pytest.fixture
def sent(openai_mode, org_project):
    """The first request body of one extraction of TEXT in the project "Couriers app"."""
    episode = record_episode(org_project, EpisodeInput(content=TEXT), enqueue=False)
    openai_mode.script({"nodes": [PAIN]})
    extract_episode(episode)
    return openai_mode.requests[0]


def _system(body: dict) -> str:
    (system,) = [m["content"] for m in body["messages"] if m["role"] == "system"]
    return system


def _user(body: dict) -> str:
    return body["messages"][-1]["content"]


def _section(system: str, header: str, next_header: str) -> str:
    """The lines of one definition: from its header to the next one."""
    start = system.index(header)
    return system[start : system.index(next_header, start)]


# --- definitions with examples ----------------------------------------------------------------


def test_every_type_and_relation_has_a_definition_with_examples():
    assert set(NODE_TYPE_DEFINITIONS) == set(NodeType)
    assert set(RELATION_DEFINITIONS) == set(RELATIONS)
    for definition in NODE_TYPE_DEFINITIONS.values():
        assert definition.meaning and definition.examples and definition.counterexamples
    for definition in RELATION_DEFINITIONS.values():
        assert definition.meaning and definition.example.said and definition.counterexample.said


def test_the_system_prompt_defines_each_type_with_its_examples(sent):
    system = _system(sent)
    headers = [f"- {t.value}: " for t in NodeType] + ["Relations (source type"]
    for node_type, header, following in zip(NodeType, headers, headers[1:], strict=False):
        definition = NODE_TYPE_DEFINITIONS[node_type]
        block = _section(system, header, following)
        assert definition.meaning in block
        assert f"Label: {definition.label}." in block
        for example in definition.examples:
            assert f'Yes: "{example.said}" → {example.reading}' in block
        for example in definition.counterexamples:
            assert f'No: "{example.said}" → {example.reading}' in block


def test_the_system_prompt_defines_each_relation_with_its_pairs_and_examples(sent):
    system = _system(sent)
    relations_part = system[system.index("Relations (source type → target type):") :]
    for name, relation in RELATIONS.items():
        definition = RELATION_DEFINITIONS[name]
        (line,) = [x for x in relations_part.splitlines() if x.startswith(f"- {name} (")]
        for source, target in relation.pairs:
            assert f"{source.value} → {target.value}" in line
        assert definition.meaning in line
        assert f'Yes: "{definition.example.said}"' in relations_part
        assert f'No: "{definition.counterexample.said}"' in relations_part


def test_the_pain_definition_rules_out_negations_praise_hypotheticals_and_requests(sent):
    pain = _section(_system(sent), "- pain: ", "- job: ")
    rejected = [line for line in pain.splitlines() if line.strip().startswith("No: ")]
    said = " ".join(rejected)
    assert "Nothing freezes" in said  # negated, English
    assert "ничего не зависает" in said  # negated, Russian
    assert "I really like" in said  # praise
    assert '"If ' in said  # hypothetical
    assert "Please add" in said and "a requested capability is a feature" in said
    assert all("not a pain" in line for line in rejected)


def test_requests_are_features_and_groups_are_segments(sent):
    system = _system(sent)
    feature = _section(system, "- feature: ", "- metric: ")
    for cue in ("please add", "I wish it had", "«добавьте»", "«хотелось бы»"):
        assert cue in feature
    assert "feature «напоминания по SMS»" in feature  # a Russian request as an example
    segment = _section(system, "- segment: ", "- pain: ")
    assert "Roles and groups are always segments" in segment
    assert "segment «бухгалтеры на аутсорсе»" in segment
    assert "one named person is a source, not a group" in segment


def test_rules_cover_boilerplate_and_whole_phrase_labels(sent):
    system = _system(sent)
    for rule in GENERAL_RULES:
        assert f"- {rule}" in system
    assert "legal or boilerplate text" in system and "never a finding" in system
    labels = next(r for r in GENERAL_RULES if r.startswith("A label is a whole phrase"))
    for banned in ("fragment", "URL", "file path", "table row"):
        assert banned in labels
    clause_types = {t for t, d in NODE_TYPE_DEFINITIONS.items() if d.label is LabelForm.CLAUSE}
    assert {NodeType.PAIN, NodeType.JOB} <= clause_types
    assert NodeType.SEGMENT not in clause_types and NodeType.FEATURE not in clause_types


# --- the project name is context, not a product node ------------------------------------------


def test_the_project_name_is_context_not_a_product_to_create(sent):
    system, user = _system(sent), _user(sent)
    assert "Couriers app" not in system
    assert "labelled with the product's name" not in system  # the old instruction
    assert "Never create a product node because of it" in system
    project_lines = [line for line in user.splitlines() if "Couriers app" in line]
    assert project_lines == ["Project name (context only, not a product by itself): Couriers app"]
    assert user.endswith("Message:\n" + TEXT)


def test_a_name_that_only_repeats_the_slug_is_not_sent(openai_mode, org_project):
    org_project.name = org_project.slug  # "couriers": an address, not a product's name
    org_project.save()
    episode = record_episode(org_project, EpisodeInput(content=TEXT), enqueue=False)
    openai_mode.script({"nodes": [PAIN]})

    extract_episode(episode)

    user = _user(openai_mode.requests[0])
    assert "Project name" not in user
    assert "couriers" not in user.casefold()


# --- enums in the structured output schema ----------------------------------------------------


def test_response_format_is_a_strict_schema_with_ontology_enums(sent):
    response_format = sent["response_format"]
    assert response_format["type"] == "json_schema"
    assert response_format["json_schema"]["strict"] is True
    schema = response_format["json_schema"]["schema"]
    node = schema["properties"]["nodes"]["items"]
    relation = schema["properties"]["relations"]["items"]
    assert node["properties"]["type"] == {"enum": list(NODE_TYPES), "type": "string"}
    assert relation["properties"]["relation"] == {"enum": list(RELATIONS), "type": "string"}
    assert node["properties"]["stance"] == {"enum": ["positive", "negative", ""], "type": "string"}
    for obj in (schema, node, relation):
        assert obj["additionalProperties"] is False
        assert obj["required"] == list(obj["properties"])
    assert "$ref" not in json.dumps(schema)


def test_a_type_outside_the_enums_is_still_rejected_at_write_time(openai_mode, org_project):
    episode = record_episode(org_project, EpisodeInput(content=TEXT), enqueue=False)
    person = {"ref": "n1", "type": "dispatcher", "label": "Dispatchers", "quote": "Dispatchers"}
    segment = {**person, "ref": "n2", "type": "segment", "label": "Dispatchers in Lyon"}
    pain = {**PAIN, "ref": "n3"}
    hates = {"relation": "hates", "source": "n2", "target": "n3", "quote": "Dispatchers in Lyon"}
    answer = {"nodes": [person, segment, pain], "relations": [hates]}
    openai_mode.script(answer, answer)

    outcome = extract_episode(episode)

    # The schema sent did not allow either value...
    schema = openai_mode.requests[0]["response_format"]["json_schema"]["schema"]
    node_types = schema["properties"]["nodes"]["items"]["properties"]["type"]["enum"]
    relations = schema["properties"]["relations"]["items"]["properties"]["relation"]["enum"]
    assert "dispatcher" not in node_types and "hates" not in relations
    # ...and the system still checked the answer, said why, and kept what was valid.
    repair = _user(openai_mode.requests[1])
    assert "node type 'dispatcher' is not in the ontology" in repair
    assert "relation 'hates' is not in the ontology" in repair
    assert sorted(n.candidate.type for n in outcome.nodes) == ["pain", "segment"]
    assert outcome.relations == []
    final = ExtractionRejection.objects.filter(episode=episode, final=True)
    assert {r.item.get("type") or r.item.get("relation") for r in final} == {"dispatcher", "hates"}


# --- known subjects in the user message -------------------------------------------------------


def test_known_subjects_are_listed_for_the_model_and_capped():
    subjects = [f"subject {i:02d}" for i in range(MAX_KNOWN_SUBJECTS + 5)]
    request = ExtractionRequest(text=TEXT, product="P", known_subjects=subjects)

    user = extraction.build_messages(request)[-1]["content"]

    (line,) = [x for x in user.splitlines() if x.startswith("Known subjects: ")]
    assert json.loads(line.removeprefix("Known subjects: ")) == subjects[:MAX_KNOWN_SUBJECTS]


def test_no_known_subjects_says_so(sent):
    assert "Known subjects: none yet" in _user(sent)


def test_known_subjects_keep_non_latin_text_readable():
    request = ExtractionRequest(text=TEXT, product="P", known_subjects=["цена"])
    assert 'Known subjects: ["цена"]' in extraction.build_messages(request)[-1]["content"]
