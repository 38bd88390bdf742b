"""The write-time grounding check (kg.pipeline.grounding) on the real dev sets.

    python -m benchmarks.grounding

1. The offline engine's answer on every dev item of every set goes through `check_answer`,
   as in the pipeline: how many nodes and relations it proposed, how many the checks refused,
   and each refusal's reason (none should be a grounding refusal: the engine quotes what it
   labels).
2. The paraphrase bar (PARAPHRASE_SIMILARITY), against the labels of the dev sets' nodes: the
   share of labels whose own quote the check accepts by similarity alone, and the share it
   accepts for a quote they do not belong to — another item's quote of the same set (random),
   and another quote of the same message (hard) — among those that share too few words to be
   accepted by their lemmas. Dev items only: the bar was chosen on these figures.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter

from benchmarks.environment import RESULTS, bench_environment

BARS = (0.5, 0.55, 0.6, 0.65, 0.7)


def _dev_sets() -> dict[str, list]:
    from kg.realdata import datasets as sets
    from kg.realdata.suite import default_annotations, default_datasets

    data, notes = default_datasets(), default_annotations()
    loaded = {
        "app_reviews": sets.app_review_sentences(data),
        "user_stories": sets.user_stories(data),
        "ru_vscode": sets.ru_vscode_issues(data, notes / "ru_vscode_dev.json")
        + sets.ru_vscode_extra_issues(notes / "ru_vscode_extra_dev.json"),
        "seamonkey": sets.seamonkey_reports(data, notes / "seamonkey_dev.json"),
        "hadoop": sets.hadoop_reports(data, notes / "hadoop_dev.json"),
    }
    return {name: [i for i in items if i.split == "dev"] for name, items in loaded.items()}


def _lemmas_support(label: str, quote: str) -> bool:
    from kg.pipeline.grounding import says_its_words

    return says_its_words(label, quote)


def run() -> dict:
    import numpy as np

    from kg.language.encoder import encode
    from kg.llm.offline.extractor import extract_offline
    from kg.llm.prompts.extraction_models import ExtractionRequest
    from kg.pipeline.extract import check_answer
    from kg.pipeline.grounding import NAMED_TYPES, PARAPHRASE_SIMILARITY

    rng = random.Random(7)
    report: dict = {"paraphrase_similarity": PARAPHRASE_SIMILARITY, "sets": {}}
    own, others, hard = [], [], []
    for name, items in _dev_sets().items():
        proposed = refused = 0
        reasons: Counter[str] = Counter()
        examples = []
        labelled = []
        for item in items:
            request = ExtractionRequest(
                text=item.text, language=item.language, product="", records=item.records
            )
            answer = extract_offline(request)
            checked = check_answer(item.text, answer)
            proposed += len(answer.nodes) + len(answer.relations)
            refused += len(checked.rejections)
            for rejection in checked.rejections:
                reasons[rejection.reason.split(":")[0]] += 1
                examples.append(rejection.reason[:200])
            plain = [n for n in answer.nodes if n.type not in NAMED_TYPES | {"metric"}]
            labelled += [(n.label, n.quote) for n in plain]
            for n in plain:
                other = next((m.quote for m in plain if m.quote != n.quote), None)
                if other and not _lemmas_support(n.label, other):
                    hard.append((n.label, other))
        quotes = [q for _, q in labelled]
        for label, quote in labelled:
            own.append((label, quote))
            stranger = rng.choice(quotes) if quotes else quote
            if stranger != quote and not _lemmas_support(label, stranger):
                others.append((label, stranger))
        report["sets"][name] = {
            "items": len(items),
            "proposed": proposed,
            "refused": refused,
            "refused_by_reason": dict(reasons),
            "refused_examples": examples[:10],
        }
        print(name, report["sets"][name], flush=True)

    def cosines(pairs: list[tuple[str, str]]) -> np.ndarray:
        if not pairs:
            return np.zeros(0)
        labels, quotes = encode([p[0] for p in pairs]), encode([p[1] for p in pairs])
        return (labels * quotes).sum(axis=1)

    own_cos, other_cos, hard_cos = cosines(own), cosines(others), cosines(hard)
    report["bar"] = {
        "labels": len(own),
        "labels_with_their_own_quote_by_lemmas": round(
            sum(_lemmas_support(label, quote) for label, quote in own) / max(1, len(own)), 4
        ),
        "wrong_quote_pairs_random": len(others),
        "wrong_quote_pairs_same_message": len(hard),
        "by_bar": {
            str(bar): {
                "own_quote_accepted_by_similarity_alone": round(float((own_cos >= bar).mean()), 3),
                "random_wrong_quote_accepted": round(float((other_cos >= bar).mean()), 4),
                "same_message_wrong_quote_accepted": round(float((hard_cos >= bar).mean()), 4),
            }
            for bar in BARS
        },
    }
    return report


def main() -> None:
    bench_environment()
    started = time.time()
    report = run()
    report["seconds"] = round(time.time() - started, 1)
    report["taken_at"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    report["split"] = "dev only (the bar was chosen on these figures)"
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "grounding.json").write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    print(json.dumps(report["bar"], indent=2))


if __name__ == "__main__":
    main()
