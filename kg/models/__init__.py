from kg.models.episodes import Episode, EpisodeKind, EpisodeProcessing, ProcessingStatus
from kg.models.pipeline import (
    ExtractionRejection,
    LLMCall,
    ProjectRevision,
    ResolutionDecision,
)
from kg.models.tenancy import Language, Membership, Organization, Project, Role

__all__ = [
    "Episode",
    "EpisodeKind",
    "EpisodeProcessing",
    "ExtractionRejection",
    "LLMCall",
    "Language",
    "Membership",
    "Organization",
    "ProcessingStatus",
    "Project",
    "ProjectRevision",
    "ResolutionDecision",
    "Role",
]
