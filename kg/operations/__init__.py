"""Running the product: the embedded services, health, the worker's lifecycle, checking a
graph against its own links and rebuilding it from the ledger, and the evaluation on the
annotated conversations."""
