"""PRD generation with the offline engine against the real embedded graph."""

from __future__ import annotations

import pytest

from artifacts.models import (
    ArtifactVersion,
    Citation,
    Claim,
    ClaimKind,
    FrozenVersionError,
    Section,
    Stage,
    VersionStatus,
)
from artifacts.rendering import load_document, render_html, to_json
from artifacts.services import generate_prd, parse_as_of
from kg.models import LLMCall, Organization, Project
from tests.artifacts.conftest import Research
from tests.artifacts.invariants import (
    assert_claims_name_their_nodes,
    assert_evidence_traced,
    assert_open_questions_complete,
    writer_claims,
)

pytestmark = pytest.mark.django_db


def test_every_claim_is_traced_to_quotes_in_episodes(couriers):
    version = generate_prd(couriers.project)

    assert version.status == VersionStatus.COMPLETE
    assert version.number == 1
    assert version.engine == "offline"
    claims = writer_claims(version)
    assert len(claims) >= 10
    assert_evidence_traced(version)
    assert_claims_name_their_nodes(version)
    assert_open_questions_complete(version)
    assert version.report["dropped"] == []


def test_a_node_its_quote_does_not_name_is_dropped_and_listed(graph, db):
    """The extractor made the project's name a product node from a market sentence that does
    not say it: no claim may name it, nor relate it to the market."""
    org = Organization.objects.create(slug="demo", name="Demo Org")
    project = Project.objects.create(organization=org, slug="demo", name="Demo product")
    r = Research(project)
    e1 = r.say("We target the market: small dental clinics in Ohio.", "2026-04-01T09:00:00Z")
    e2 = r.say("Dental clinic owners lose appointment slips every week.", "2026-04-02T09:00:00Z")
    sentence = "We target the market: small dental clinics in Ohio"
    product = r.node("product", "Demo product", (e1, sentence))
    market = r.node("market", "Small dental clinics in Ohio", (e1, "small dental clinics in Ohio"))
    owners = r.node("segment", "Dental clinic owners", (e2, "Dental clinic owners"))
    slips = r.node("pain", "Lost appointment slips", (e2, "lose appointment slips every week"))
    r.edge("targets_market", product, market, e1, sentence)
    r.edge("experiences", owners, slips, e2, "Dental clinic owners lose appointment slips")

    version = generate_prd(project)

    texts = [c.text for c in writer_claims(version)]
    assert not any("Demo product" in t for t in texts)
    assert "targets the market" not in version.markdown
    # Grounded claims pass: the market alone, and a relation its own quote states.
    assert "Target market: Small dental clinics in Ohio." in texts
    assert "Segment Dental clinic owners experiences the pain: Lost appointment slips." in texts
    relation = Claim.objects.get(
        version=version, section=Section.PAINS, text__startswith="Segment Dental"
    )
    assert [c.quote for c in relation.citations.order_by("order")] == [
        "Dental clinic owners lose appointment slips",
        "lose appointment slips every week",
    ]
    reason = f"node #{product.number} 'Demo product' not in its cited quote"
    assert version.report["dropped"] == [
        {
            "section": "problem",
            "text": "Product: Demo product.",
            "nodes": [product.number],
            "reason": reason,
        }
    ]
    assert to_json(load_document(version))["dropped"][0]["reason"] == reason
    assert LLMCall.objects.count() == 1  # the offline engine is not asked to repair
    assert_evidence_traced(version)
    assert_claims_name_their_nodes(version)


def test_offline_engine_writes_only_label_words_and_quoted_numbers(couriers):
    version = generate_prd(couriers.project)

    texts = " ".join(c.text for c in writer_claims(version))
    # "Top 250 couriers" has a label number that no quote holds: no claim may state it.
    assert "250" not in texts
    # Goal and metric are written through their edge, not repeated as node claims.
    assert "Goal: Cut late deliveries to 5% by June." not in texts
    assert "Cut late deliveries to 5% by June is measured by the metric: Late deliveries." in texts


def test_sections_cover_the_graph(couriers):
    doc = to_json(load_document(generate_prd(couriers.project)))

    by_key = {s["key"]: s for s in doc["sections"]}
    assert list(by_key) == [
        "problem",
        "segments",
        "jobs",
        "pains",
        "alternatives",
        "goals",
        "non_goals",
        "requirements",
        "user_stories",
        "acceptance",
        "risks",
    ]
    segments = " ".join(c["text"] for c in by_key["segments"]["claims"])
    assert "Same-day grocery delivery in Moscow" in segments
    alternatives = " ".join(c["text"] for c in by_key["alternatives"]["claims"])
    assert "WhatsApp groups" in alternatives and "Yandex Delivery" in alternatives
    risks = by_key["risks"]["claims"]
    assert [c["nodes"] for c in risks] == [[couriers.risk.number, couriers.offline.number]]
    # Requirements: the feature with more evidence first.
    requirement_nodes = [c["nodes"][0] for c in by_key["requirements"]["claims"]]
    assert requirement_nodes == [couriers.offline.number, couriers.tips.number]


def test_citation_snapshot_and_confirmations(couriers):
    version = generate_prd(couriers.project)

    claim = Claim.objects.get(
        version=version, section=Section.PROBLEM, text="Problem: App lags on weak internet."
    )
    [citation] = claim.citations.all()
    assert citation.node_number == couriers.lag.number
    assert citation.node_type == "pain"
    assert citation.node_label == "App lags on weak internet"
    assert citation.confidence == couriers.lag.confidence == 85
    assert citation.episode_number == couriers.e[2].number
    assert citation.quote == "the app lags on weak internet"
    assert citation.confirmed_in == [couriers.e[3].number, couriers.e[8].number]
    assert (
        '*(pain #4, confidence 85; message #2, 3 March: "the app lags on weak internet"; '
        "confirmed in messages #3, #8)*" in version.markdown
    )


def test_low_confidence_claims_are_hypotheses(couriers):
    version = generate_prd(couriers.project)

    kinds = {c.text: c.kind for c in writer_claims(version)}
    assert kinds["Problem: App lags on weak internet."] == ClaimKind.FACT  # 85
    assert kinds["Requirement: Tips in the app."] == ClaimKind.HYPOTHESIS  # 65
    assert "- **Hypothesis:** Requirement: Tips in the app." in version.markdown
    html = render_html(load_document(version))
    assert '<span class="badge badge-hypothesis">Hypothesis</span>' in html


def test_open_questions_and_appendix(couriers):
    version = generate_prd(couriers.project)
    doc = to_json(load_document(version))

    kinds = [q["kind"] for q in doc["open_questions"]]
    assert kinds[0] == "contradiction"
    assert kinds.count("contradiction") == 1
    contradiction = doc["open_questions"][0]
    assert contradiction["nodes"] == [couriers.price_yes.number, couriers.price_no.number]
    assert [c["quote"] for c in contradiction["citations"]] == [
        "price of the bike rental matters most to me",
        "the rental price does not matter",
    ]
    cited = {n for s in doc["sections"] for c in s["claims"] for n in c["nodes"]}
    cited |= {n for q in doc["open_questions"] for n in q["nodes"]}
    in_appendix = {n["node"] for m in doc["appendix"] for q in m["quotes"] for n in q["nodes"]}
    assert in_appendix == cited
    lag = [
        (m["message_number"], q["quote"])
        for m in doc["appendix"]
        for q in m["quotes"]
        if couriers.lag.number in {n["node"] for n in q["nodes"]}
    ]
    assert lag == [(e.episode_number, e.quote) for e in couriers.lag.evidence]


def test_regenerating_without_new_episodes_reuses_the_version(couriers):
    first = generate_prd(couriers.project)
    calls = LLMCall.objects.count()
    stages: list[str] = []

    again = generate_prd(couriers.project, progress=stages.append)

    assert again.pk == first.pk
    assert LLMCall.objects.count() == calls
    assert ArtifactVersion.objects.count() == 1
    assert stages == [Stage.DONE]  # answered from the revision: the graph is not read


def test_new_evidence_makes_a_new_version(couriers):
    first = generate_prd(couriers.project)
    e10 = couriers.say("Couriers want a dark theme for night shifts.", "2026-03-20T10:00:00Z")
    couriers.node("feature", "Dark theme", (e10, "a dark theme for night shifts"))

    second = generate_prd(couriers.project)

    assert second.pk != first.pk
    assert (second.number, first.number) == (2, 1)
    assert second.context_hash != first.context_hash
    assert "Dark theme" in second.markdown and "Dark theme" not in first.markdown


def test_progress_stages(couriers):
    stages: list[str] = []

    version = generate_prd(couriers.project, progress=stages.append)

    assert stages == [Stage.CONTEXT, Stage.WRITING, Stage.CHECKING, Stage.RENDERING, Stage.DONE]
    assert version.stage == Stage.DONE


def test_as_of_before_and_after_a_market_pivot(project, graph):
    r = Research(project)
    e1 = r.say("FieldKit targets small plumbing contractors in Ohio.", "2026-05-01T09:00:00Z")
    e2 = r.say(
        "Pivot: FieldKit now targets hospital facility teams instead.", "2026-05-20T09:00:00Z"
    )
    pivot = "2026-05-20T09:00:00Z"
    product = r.node("product", "FieldKit", (e1, "FieldKit"), (e2, "FieldKit"))
    old = r.node(
        "market", "Small plumbing contractors", (e1, "small plumbing contractors"), invalid_at=pivot
    )
    new = r.node("market", "Hospital facility teams", (e2, "hospital facility teams"))
    r.edge(
        "targets_market",
        product,
        old,
        e1,
        "FieldKit targets small plumbing contractors",
        invalid_at=pivot,
    )
    r.edge("targets_market", product, new, e2, "FieldKit now targets hospital facility teams")

    before = generate_prd(project, parse_as_of("2026-05-10"))
    after = generate_prd(project, parse_as_of("2026-05-25"))
    now = generate_prd(project)

    assert "FieldKit targets the market: Small plumbing contractors." in before.markdown
    assert "Hospital" not in before.markdown
    for version in (after, now):
        assert "FieldKit targets the market: Hospital facility teams." in version.markdown
        assert "plumbing" not in version.markdown.lower().split("## evidence appendix")[0]
        assert_evidence_traced(version)
    assert_evidence_traced(before)
    assert_open_questions_complete(before, parse_as_of("2026-05-10"))
    # As of before the pivot, the citation shows only the evidence known then.
    product_citations = Citation.objects.filter(claim__version=before, node_number=product.number)
    assert {c.episode_number for c in product_citations} == {e1.number}
    assert all(c.confirmed_in == [] for c in product_citations)
    assert before.as_of is not None and "as of 10 May 2026" in before.markdown


def test_russian_project_is_written_in_russian(graph, db):
    org = Organization.objects.create(slug="salon", name="Salon")
    project = Project.objects.create(organization=org, slug="salons", name="Салоны", language="ru")
    r = Research(project)
    e1 = r.say(
        "Администраторы салонов теряют 2 часа в день на подтверждение записей по телефону.",
        "2026-03-05T10:00:00Z",
    )
    e2 = r.say("Администраторы ведут запись в бумажном журнале.", "2026-03-06T10:00:00Z")
    segment = r.node("segment", "Администраторы салонов", (e1, "Администраторы салонов"))
    pain = r.node(
        "pain",
        "Подтверждение записей по телефону",
        (e1, "теряют 2 часа в день на подтверждение записей по телефону"),
    )
    journal = r.node("alternative", "Бумажный журнал", (e2, "ведут запись в бумажном журнале"))
    r.edge(
        "experiences",
        segment,
        pain,
        e1,
        "Администраторы салонов теряют 2 часа в день на подтверждение записей по телефону",
    )
    r.edge("addresses", journal, pain, e2, "Администраторы ведут запись в бумажном журнале")

    version = generate_prd(project)

    md = version.markdown
    assert md.startswith("# PRD — Салоны")
    assert "## Постановка проблемы" in md and "## Открытые вопросы" in md
    assert (
        "Сегмент Администраторы салонов испытывает боль: Подтверждение записей по телефону." in md
    )
    assert "(боль #2, уверенность 65; сообщение #1, 5 марта: «теряют 2 часа в день" in md
    assert "**Гипотеза:**" in md
    assert "написано офлайн-шаблонизатором" in md
    assert_evidence_traced(version)
    assert_open_questions_complete(version)


def test_empty_project_gives_an_empty_prd_without_a_model_call(project, graph):
    version = generate_prd(project)

    assert version.status == VersionStatus.COMPLETE
    assert LLMCall.objects.count() == 0
    assert "Nothing in the research supports this section yet." in version.markdown
    assert "No open questions." in version.markdown


def test_completed_versions_are_frozen(couriers):
    version = generate_prd(couriers.project)
    claim = version.claims.first()
    citation = Citation.objects.filter(claim__version=version).first()

    claim.text = "Rewritten after the fact."
    with pytest.raises(FrozenVersionError):
        claim.save()
    with pytest.raises(FrozenVersionError):
        claim.delete()
    with pytest.raises(FrozenVersionError):
        Claim.objects.filter(version=version).update(text="x")
    with pytest.raises(FrozenVersionError):
        Claim.objects.filter(version=version).delete()
    with pytest.raises(FrozenVersionError):
        Claim.objects.create(version=version, section="problem", order=99, text="new")
    with pytest.raises(FrozenVersionError):
        Claim.objects.bulk_create([Claim(version=version, section="problem", order=99, text="n")])
    citation.quote = "something nobody said"
    with pytest.raises(FrozenVersionError):
        citation.save()
    with pytest.raises(FrozenVersionError):
        citation.delete()
    with pytest.raises(FrozenVersionError):
        Citation.objects.filter(claim__version=version).update(quote="x")
    version.markdown = "rewritten"
    with pytest.raises(FrozenVersionError):
        version.save()
    with pytest.raises(FrozenVersionError):
        version.delete()
    with pytest.raises(FrozenVersionError):
        ArtifactVersion.objects.filter(pk=version.pk).update(markdown="")
    fresh = ArtifactVersion.objects.get(pk=version.pk)
    assert fresh.markdown != "rewritten"
    assert Claim.objects.get(pk=claim.pk).text != "Rewritten after the fact."


def test_parse_as_of():
    assert parse_as_of(None) is None
    assert parse_as_of("") is None
    assert parse_as_of("2026-03-05").isoformat() == "2026-03-05T23:59:59.999999+00:00"
    assert parse_as_of("2026-03-05T12:00:00Z").isoformat() == "2026-03-05T12:00:00+00:00"
    assert parse_as_of("2026-03-05T12:00:00").tzinfo is not None
    with pytest.raises(ValueError, match="not an ISO-8601"):
        parse_as_of("next tuesday")
