"""Smoke runs of `mushgym bench` on tiny budgets (speed is measured, never asserted)."""

import json

from mushgym import bench


def test_quick_smoke_toy_and_fungi(tmp_path, capsys):
    path = tmp_path / "bench.json"
    status = bench.main(["toygame.game", "fungi_v0", "--quick", "--budget", "0.02", "--repeats", "1",
                         "--plain", "--json", str(path)])
    assert status == 0
    out = capsys.readouterr().out
    assert "toyrace_v0" in out and "fungi_v0" in out and "games/s" in out
    report = json.loads(path.read_text())
    assert set(report["envs"]) == {"toyrace_v0", "fungi_v0"}
    assert report["machine"]["cpu"] is not None
    fungi = report["envs"]["fungi_v0"]
    names = {r["name"] for r in fungi["rows"]}
    assert {"Game.random_rollouts", "do-nothing env, wrapped (baseline)", "raw_env()", "batch 1,024",
            "mushgym.episodes.play, batch 128"} <= names
    assert "env() (one-layer standard wrapper)" in names and "raw_env() in PettingZoo's 3 wrappers" in names
    for r in fungi["rows"]:
        assert r["steps_per_s"] > 0 and r["games_per_s"] >= 0
    assert fungi["state_bytes"] == fungi["state_size"] * 8
    assert "AEC raw env in PettingZoo's 3 wrappers / do-nothing wrapped" in fungi["ratios"]
    assert "AEC env() (one layer) / do-nothing wrapped" in fungi["ratios"]


def test_full_table_small(tmp_path, capsys):
    path = tmp_path / "bench.json"
    status = bench.main(["toygame.game", "--budget", "0.01", "--repeats", "1", "--batches", "1,64",
                         "--no-startup", "--no-anchors", "--json", str(path)])
    assert status == 0
    report = json.loads(path.read_text())
    rows = report["envs"]["toyrace_v0"]["rows"]
    groups = {r["group"][:2] for r in rows}
    assert groups == {"a.", "b.", "c.", "e.", "f."}
    assert any(r["name"] == "batch 64" for r in rows)
    assert any(r["name"].startswith("ISMCTS 1000 sims x 1 tree") for r in rows)   # f. search


def test_unknown_env_is_reported_not_fatal(tmp_path, capsys):
    status = bench.main(["no_such_env", "toygame.game", "--quick", "--budget", "0.01", "--repeats", "1",
                         "--plain"])
    assert status == 1
    captured = capsys.readouterr()
    assert "no_such_env" in captured.err and "toyrace_v0" in captured.out


def test_module_entry_point_and_package_names():
    """``python -m mushgym.bench`` and the names benchmarks/ scripts import still exist."""
    import subprocess
    import sys

    import mushgym.bench as bench_package

    for name in ("BATCH_SIZES", "bench_rollouts", "bench_vector", "machine", "main", "resolve_env"):
        assert hasattr(bench_package, name), name

    out = subprocess.run([sys.executable, "-m", "mushgym.bench", "-h"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "--quick" in out.stdout
