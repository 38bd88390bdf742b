"""The LLM port: one gateway, two engines (openai, offline), one prompt module per operation."""

from kg.llm.gateway import LLMOutputError, LLMResult, call_llm, call_llm_repairing_json
from kg.llm.operation import LLMOperation

__all__ = ["LLMOperation", "LLMOutputError", "LLMResult", "call_llm", "call_llm_repairing_json"]
