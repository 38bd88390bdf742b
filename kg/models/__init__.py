from kg.models.corrections import Correction, CorrectionAction, reverted_numbers
from kg.models.episodes import (
    Episode,
    EpisodeKind,
    EpisodeProcessing,
    ProcessingStatus,
    RecordKind,
)
from kg.models.imports import SourceImport, SourceImportStatus
from kg.models.integration import EpisodeIntegration, IndexedNode, IndexPosting
from kg.models.pipeline import (
    BrokerEpoch,
    ExtractionRejection,
    LLMCall,
    ProjectRevision,
    ResolutionDecision,
)
from kg.models.search import EpisodeSearchText
from kg.models.tenancy import Invitation, Language, Membership, Organization, Project, Role

__all__ = [
    "BrokerEpoch",
    "Correction",
    "CorrectionAction",
    "reverted_numbers",
    "Episode",
    "EpisodeKind",
    "EpisodeIntegration",
    "EpisodeProcessing",
    "EpisodeSearchText",
    "ExtractionRejection",
    "IndexPosting",
    "IndexedNode",
    "Invitation",
    "LLMCall",
    "Language",
    "Membership",
    "Organization",
    "ProcessingStatus",
    "Project",
    "ProjectRevision",
    "RecordKind",
    "ResolutionDecision",
    "Role",
    "SourceImport",
    "SourceImportStatus",
]
