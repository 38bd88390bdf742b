"""The ledger: episodes, immutable once recorded, and how messages, notes and files enter it
(the readers of research files under `sources`); its lock refuses any change or deletion."""
