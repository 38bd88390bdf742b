"""The artifacts app's LLM operations, one module per operation (see kg.llm.operation)."""
