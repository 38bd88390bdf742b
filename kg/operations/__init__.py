"""Running the product: the embedded services, health, the worker's lifecycle,
rebuilding a graph from the ledger, and the evaluation on the annotated conversations."""
