"""DATABASE_OWNER_URL: the owner's connection must name the app's database with another role."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.config.test_settings import ROOT, _check

APP = "postgres://groundwork_app:app@db.example:5432/groundwork"


@pytest.mark.parametrize(
    ("owner", "said"),
    [
        ("postgres://groundwork:owner@db.example:5432/other", "must name the database"),
        ("postgres://groundwork:owner@elsewhere.example:5432/groundwork", "must name the database"),
        ("postgres://groundwork_app:app@db.example:5432/groundwork", "name the same role"),
        ("sqlite:///owner.sqlite3", "DATABASE_OWNER_URL"),
    ],
)
def test_an_owner_url_for_another_database_or_the_same_role_stops_start_up(owner, said):
    result = _check(DATABASE_URL=APP, DATABASE_OWNER_URL=owner)
    assert result.returncode != 0
    assert said in result.stderr
    assert result.stderr.startswith("Configuration error:")


def test_the_owner_of_the_apps_database_is_accepted():
    code = "from django.conf import settings; print(settings.DATABASE_OWNER['USER'])"
    result = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        cwd=ROOT,
        env=os.environ
        | {
            "DEBUG": "true",
            "DATABASE_URL": APP,
            "DATABASE_OWNER_URL": "postgres://groundwork:owner@db.example:5432/groundwork",
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "groundwork"
