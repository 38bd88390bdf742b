"""Evaluation on real public research data (the datasets folder beside the project).

Each set is split into dev and test by `split_of`, a rule fixed before any engine work:
rules and lexicons are tuned on dev only; test figures are reported apart.
"""
