"""The ledger's full-text index (kg.models.search): each episode's content words as lemmas.

Written by the pipeline when it takes episodes up, and by a search for whatever it has not
taken up yet; an episode's words never change, so an entry once written stays right.
"""

from __future__ import annotations

from collections.abc import Iterable

from kg.language.lemmas import is_stopword, lemma, words
from kg.models import Episode, EpisodeSearchText, Project

INDEX_BATCH = 500


def search_lemma(word: str) -> str:
    """The form a word is indexed and searched by: its lemma; an acronym as it is written
    ("VS Code" is not "versus code", "IT" is not "it"), since a name in capitals is not an
    inflected word."""
    if len(word) > 1 and word.isupper():
        return word.lower()
    return lemma(word)


def search_lemmas(text: str) -> list[str]:
    """A text's content words in their searched forms, in order."""
    return [
        base for base in (search_lemma(w) for w in words(text)) if base and not is_stopword(base)
    ]


def index_lemmas(text: str) -> str:
    """What the full-text index holds of a text."""
    return " ".join(search_lemmas(text))


def index_episodes(episodes: Iterable[Episode]) -> int:
    """Index the episodes not indexed yet; returns how many were. Idempotent: an episode's
    words never change, so an entry once written stays right."""
    episodes = list(episodes)
    if not episodes:
        return 0
    have = set(
        EpisodeSearchText.objects.filter(episode_id__in=[e.pk for e in episodes]).values_list(
            "episode_id", flat=True
        )
    )
    rows = [
        EpisodeSearchText(episode_id=e.pk, project_id=e.project_id, lemmas=index_lemmas(e.content))
        for e in episodes
        if e.pk not in have
    ]
    EpisodeSearchText.objects.bulk_create(rows, ignore_conflicts=True)
    return len(rows)


def index_project(project: Project) -> int:
    """Index whatever of the project's ledger the pipeline has not indexed yet (messages not
    taken up yet, or recorded before the index existed)."""
    done = 0
    while True:
        missing = list(
            Episode.objects.filter(project=project)
            .exclude(pk__in=EpisodeSearchText.objects.filter(project=project).values("episode_id"))
            .only("pk", "project_id", "content")[:INDEX_BATCH]
        )
        if not missing:
            return done
        done += index_episodes(missing)
