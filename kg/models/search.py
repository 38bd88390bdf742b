"""The full-text index of the ledger: each episode's words as lemmas, searchable.

Episodes are immutable, so their index entry is written once (by the pipeline when it takes
the episode up, or by a search that finds an episode not indexed yet). The words are stored as
lemmas made by the project's own lemmatiser (pymorphy3 for Russian, simplemma for English): the
database's full-text engine then only matches words, the same way on SQLite (FTS5) and on
PostgreSQL (a `simple` tsvector), and «курьеры опаздывают» finds «курьер опоздал».
"""

from __future__ import annotations

from django.db import models


class EpisodeSearchText(models.Model):
    episode = models.OneToOneField(
        "kg.Episode", on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    project = models.ForeignKey("kg.Project", on_delete=models.CASCADE, related_name="+")
    lemmas = models.TextField(help_text="The episode's content words as lemmas, in order.")

    class Meta:
        indexes = [models.Index(fields=["project"], name="episode_search_project")]

    def __str__(self) -> str:
        return f"search text of episode {self.episode_id}"
