"""benchmarks/search_agreement.py: a search's agreement with itself and with greedy."""

from __future__ import annotations

import json
import sys

import pytest
from paths import REPO_ROOT, TESTS_DIR  # noqa: F401

sys.path.insert(0, str(REPO_ROOT / "benchmarks"))
import search_agreement  # noqa: E402


def test_the_record_counts_every_position_once_and_its_shares_are_shares(tmp_path):
    out = tmp_path / "agreement.json"
    search_agreement.main(["fungi_v0", "--sims", "8", "64", "--positions", "12", "--keep", "0.5", "--out", str(out)])
    record = json.loads(out.read_text())
    assert record["env"] == "fungi_v0" and record["players"] == 2 and record["commit"]
    assert [r["simulations"] for r in record["rows"]] == [8, 64]
    for row in record["rows"]:
        assert row["positions"] == 12
        assert 0 <= row["self_agreement"] <= 1 and 0 <= row["greedy_agreement"] <= 1
        assert sum(g["positions"] for g in row["by_greedy_move"].values()) == 12


def test_a_bad_keep_share_is_refused():
    with pytest.raises(SystemExit):
        search_agreement.main(["fungi_v0", "--keep", "0"])
