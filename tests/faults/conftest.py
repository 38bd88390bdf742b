"""The fault-injection suite: real worker processes, broker and graph, killed and restarted.

Skipped unless GROUNDWORK_FAULTS=1 (`make faults` sets it): each scenario takes minutes.
"""

from __future__ import annotations

import os

import pytest


def pytest_collection_modifyitems(config, items) -> None:
    if os.environ.get("GROUNDWORK_FAULTS") == "1":
        return
    skip = pytest.mark.skip(reason="fault injection runs with `make faults`")
    for item in items:
        if "tests/faults/" in str(item.fspath):
            item.add_marker(skip)


def pytest_terminal_summary(terminalreporter) -> None:
    from tests.faults.harness import RECORDED, RESULTS

    if not RECORDED:
        return
    terminalreporter.section("fault injection figures")
    for name, figures in RECORDED.items():
        terminalreporter.write_line(name)
        for key, value in figures.items():
            terminalreporter.write_line(f"  {key}: {value}")
    terminalreporter.write_line(f"recorded in {RESULTS.relative_to(RESULTS.parents[2])}")
