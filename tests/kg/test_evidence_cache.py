"""The process's copy of records' evidence: handed over, never copied, and kept in step with
what the graph holds."""

from __future__ import annotations

from kg.graph import Evidence, store
from kg.pipeline import evidence_cache
from kg.pipeline.confidence import SourceCount
from kg.pipeline.evidence_cache import KeptEvidence
from kg.pipeline.ingest import episode_ingest
from tests.kg.pipeline_helpers import make_project, record_messages


def _kept(*quotes: str) -> KeptEvidence:
    evidence = [
        Evidence(
            episode_uid=f"ep-{i}",
            episode_number=i,
            quote=quote,
            start=0,
            end=len(quote),
            valid_at="2026-03-05T10:00:00Z",
        )
        for i, quote in enumerate(quotes, start=1)
    ]
    return KeptEvidence(evidence, SourceCount(evidence))


def test_kept_evidence_is_handed_over_once_and_only_for_its_version():
    evidence_cache.forget_all()
    kept = _kept("exports time out", "exports are slow")
    evidence_cache.keep("p", "n1", "v1", kept)

    assert evidence_cache.take("p", "n1", "v2") is None  # written since by someone else
    assert evidence_cache.take("p", "n1", "v1") is None  # and the stale copy is gone
    evidence_cache.keep("p", "n1", "v1", kept)
    taken = evidence_cache.take("p", "n1", "v1")
    assert taken is kept  # the same lists: no copy whose cost grows with the evidence
    assert evidence_cache.take("p", "n1", "v1") is None  # out while its taker changes it
    assert evidence_cache.take("p", "n1", None) is None


def test_episodes_after_the_first_find_the_evidence_they_need_without_reading_it(
    db, graph, monkeypatch
):
    evidence_cache.forget_all()
    project = make_project("kept")
    first, *later = record_messages(
        project,
        [
            {"text": "Couriers hate the slow checkout.", "at": "2026-01-01T10:00:00Z"},
            {"text": "The slow checkout makes couriers angry.", "at": "2026-01-02T10:00:00Z"},
            {
                "text": "Couriers say the slow checkout costs them tips.",
                "at": "2026-01-03T10:00:00Z",
            },
        ],
    )
    episode_ingest(first.pk)
    reads: list[list[str]] = []
    real = store.node_evidence
    monkeypatch.setattr(
        store,
        "node_evidence",
        lambda scope, uids, client=None: reads.append(list(uids)) or real(scope, uids, client),
    )
    for episode in later:
        episode_ingest(episode.pk)

    checkout = next(
        n for n in store.list_nodes(project.graph_scope, "pain") if n.key == "slow checkout"
    )
    assert [e.episode_number for e in checkout.evidence] == [1, 2, 3]
    assert not [uids for uids in reads if checkout.uid in uids]
