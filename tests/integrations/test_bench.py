"""Smoke runs of `mushgym bench` on tiny budgets (speed is measured, never asserted)."""

import json

from paths import REPO_ROOT, TESTS_DIR  # noqa: E402,F401

from mushgym import bench


def test_quick_smoke_toy_and_fungi(tmp_path, capsys):
    path = tmp_path / "bench.json"
    status = bench.main(
        ["toygame.game", "fungi_v0", "--quick", "--budget", "0.02", "--repeats", "1", "--plain", "--json", str(path)]
    )
    assert status == 0
    out = capsys.readouterr().out
    assert "toyrace_v0" in out and "fungi_v0" in out and "games/s" in out
    report = json.loads(path.read_text())
    assert set(report["envs"]) == {"toyrace_v0", "fungi_v0"}
    assert report["machine"]["cpu"] is not None
    assert report["compile_estimate_s"] >= 0  # said up front, before anything compiles (0 on a warm cache)
    assert "machine: " in out and report["machine"]["logical_cpus"] >= 1
    fungi = report["envs"]["fungi_v0"]
    names = {r["name"] for r in fungi["rows"]}
    assert {
        "Game.random_rollouts",
        "do-nothing env, wrapped (baseline)",
        "raw_env()",
        "batch 1,024, serial loop",
        "mushgym.episodes.play, batch 128",
    } <= names
    assert "env() (one-layer standard wrapper)" in names and "raw_env() in PettingZoo's 3 wrappers" in names
    for r in fungi["rows"]:
        assert r["steps_per_s"] > 0 and r["games_per_s"] >= 0
    assert fungi["state_bytes"] == fungi["state_size"] * 8
    assert "AEC raw env in PettingZoo's 3 wrappers / do-nothing wrapped" in fungi["ratios"]
    assert "AEC env() (one layer) / do-nothing wrapped" in fungi["ratios"]


def test_full_table_small(tmp_path, capsys):
    path = tmp_path / "bench.json"
    status = bench.main(
        [
            "toygame.game",
            "--budget",
            "0.01",
            "--repeats",
            "1",
            "--batches",
            "1,64",
            "--no-startup",
            "--no-anchors",
            "--json",
            str(path),
        ]
    )
    assert status == 0
    report = json.loads(path.read_text())
    rows = report["envs"]["toyrace_v0"]["rows"]
    groups = {r["group"][:2] for r in rows}
    assert groups == {"a.", "b.", "c.", "e.", "f."}
    assert any(r["name"] == "batch 64" for r in rows)
    assert any(r["name"].startswith("ISMCTS 1000 sims x 1 tree") for r in rows)  # f. search


def test_unknown_env_is_reported_not_fatal(tmp_path, capsys):
    status = bench.main(["no_such_env", "toygame.game", "--quick", "--budget", "0.01", "--repeats", "1", "--plain"])
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


def test_timed_rounds_interleaves_the_measurements():
    """Each round runs every measurement once, in order, so that rates of one round share a period."""
    calls = []

    def runner(name, steps):
        def run(budget):
            calls.append(name)
            return steps, 1

        return run

    rates = bench.timed_rounds([runner("a", 10), runner("b", 20)], 0.0, 3)
    assert calls == ["a", "b"] * 3
    assert [len(s) for s, _ in rates] == [3, 3]
    assert all(x > 0 for s, g in rates for x in s + g)


def test_ratios_are_taken_round_by_round():
    """Rows timed in the same rounds: their ratio is the median of the rounds' ratios (each
    round's two rates come from the same seconds), with the min-max; rows of different
    rounds: the ratio of the medians, without a spread."""
    from mushgym.bench.measure import make_row

    b_rates, a_rates = [10.0, 4.0, 6.0], [6.0, 3.0, 2.0]  # rounds' ratios 0.6, 0.75, 1/3
    a = make_row("b. vector API", "batch 8,192", None, (a_rates, a_rates), round_rates=a_rates, rounds="r1")
    b = make_row(
        "a. in-kernel rollouts", "Game.random_rollouts", None, (b_rates, b_rates), round_rates=b_rates, rounds="r1"
    )
    value, spread = bench.round_ratio(a, b)
    assert value == 0.6 and spread == (2.0 / 6.0, 0.75)
    assert a.steps_per_s / b.steps_per_s == 0.5  # the medians' ratio differs
    other = make_row("b. vector API", "batch 8,192", None, (a_rates, a_rates), round_rates=a_rates, rounds="r2")
    assert bench.round_ratio(other, b) == (0.5, None)


def test_full_table_ratios_come_from_shared_rounds(tmp_path):
    """The full table's rollouts and vector rows share their rounds; the footer's ratios are
    per round, with their spread."""
    path = tmp_path / "bench.json"
    status = bench.main(
        [
            "toygame.game",
            "--budget",
            "0.01",
            "--repeats",
            "2",
            "--batches",
            "64,256",
            "--no-startup",
            "--no-anchors",
            "--plain",
            "--json",
            str(path),
        ]
    )
    assert status == 0
    env = json.loads(path.read_text())["envs"]["toyrace_v0"]
    timed_together = [r for r in env["rows"] if r["group"][:2] in ("a.", "b.")]
    assert len({r["extra"]["rounds"] for r in timed_together}) == 1
    assert all(len(r["extra"]["round_rates"]) == 2 for r in timed_together)
    ratios = env["ratios"]
    import numba

    nt = numba.config.NUMBA_NUM_THREADS
    key = f"vector batch 256 / rollouts ({nt} threads)"
    assert ratios[key] > 0 and "over 2 rounds" in ratios[key + " per round"]
    vec = next(r for r in timed_together if r["name"] == "batch 256" and r["threads"] in (None, nt))
    roll = next(r for r in timed_together if r["name"] == "Game.random_rollouts" and r["threads"] == nt)
    per_round = [x / y for x, y in zip(vec["extra"]["round_rates"], roll["extra"]["round_rates"])]
    assert abs(ratios[key] - sum(per_round) / 2) < 1e-9 * ratios[key]
    # the docs' speed tables are made from such a report (benchmarks/speed_table.py)
    import sys

    sys.path.insert(0, str(REPO_ROOT / "benchmarks"))
    import speed_table

    lines = speed_table.table(json.loads(path.read_text()))
    assert lines[0] == "| | `toyrace_v0` |"
    rollouts_line = next(line for line in lines if line.startswith("| in-kernel rollouts, 1 thread"))
    roll_1t = next(r for r in timed_together if r["name"] == "Game.random_rollouts" and r["threads"] == 1)
    assert f"| {speed_table.fmt_rate(roll_1t['steps_per_s'])} |" in rollouts_line


def _fake_machine(tmp_path):
    """A /proc/cpuinfo of two processors and a sysfs cache folder of four caches."""
    cpuinfo = tmp_path / "cpuinfo"
    block = (
        "processor\t: {n}\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: {model}\n"
        "model name\t: AMD EPYC 9R14\nstepping\t: 1\n\n"
    )
    cpuinfo.write_text(block.format(n=0, model=17) + block.format(n=1, model=99))
    caches = tmp_path / "cache"
    for i, (level, kind, size, shared) in enumerate(
        [
            (1, "Data", "32K", "0"),
            (1, "Instruction", "32K", "0"),
            (2, "Unified", "1024K", "0"),
            (3, "Unified", "32M", "0-1"),
        ]
    ):
        d = caches / f"index{i}"
        d.mkdir(parents=True)
        for key, value in (("level", level), ("type", kind), ("size", size), ("shared_cpu_list", shared)):
            (d / key).write_text(f"{value}\n")
    (caches / "uevent").write_text("")
    return str(cpuinfo), str(caches)


def test_machine_records_cpu_model_and_caches(tmp_path):
    """The CPU's family and model come from the first processor's block; the caches from sysfs,
    in KiB; the one-line description names them (the project's VMs change CPU from one day to the next)."""
    cpuinfo, caches = _fake_machine(tmp_path)
    m = bench.machine(cpuinfo=cpuinfo, cache_dir=caches)
    assert (m["cpu"], m["cpu_vendor"], m["cpu_family"], m["cpu_model"], m["cpu_stepping"]) == (
        "AMD EPYC 9R14",
        "AuthenticAMD",
        25,
        17,
        1,
    )
    assert [(c["level"], c["type"], c["size_kib"]) for c in m["caches"]] == [
        (1, "Data", 32),
        (1, "Instruction", 32),
        (2, "Unified", 1024),
        (3, "Unified", 32768),
    ]
    m["load_average"] = [1.5, 1.0, 0.5]
    line = bench.describe_machine(m)
    assert line.startswith("AMD EPYC 9R14 (family 25 model 17); L1d 32 KiB, L2 1 MiB, L3 32 MiB shared;")
    assert "load 1.50 at the start" in line


def test_machine_without_cpuinfo_or_sysfs(tmp_path):
    """Where neither file exists (another OS) the record says so instead of failing; old
    reports without the new keys still describe."""
    m = bench.machine(cpuinfo=str(tmp_path / "none"), cache_dir=str(tmp_path / "none"))
    assert m["caches"] == [] and m["cpu_family"] is None
    assert (
        bench.describe_machine({"cpu": "AMD EPYC", "logical_cpus": 2, "numba_threads": 2, "threading_layer": "tbb"})
        == "AMD EPYC; 2 logical CPUs, 2 numba threads (tbb)"
    )
    # printed before numba's first parallel call: no layer to name yet
    assert (
        bench.describe_machine(
            {
                "cpu": "AMD EPYC",
                "logical_cpus": 2,
                "numba_threads": 2,
                "threading_layer": bench.measure.LAYER_NOT_CHOSEN,
            }
        )
        == "AMD EPYC; 2 logical CPUs, 2 numba threads"
    )


def test_search_rows_time_the_games_compiled_rollouts_too():
    """bench's f. rows: random playouts for every game, and the game's compiled greedy where it has one."""
    from toygame.game import ToyGame

    import mushgym
    from mushgym.bench.rows import search_rollouts

    assert search_rollouts(ToyGame()) == ("random",)
    for env_id in ("fungi_v0", "mycology_v1", "mycelia_v1", "mycelium_v2"):
        assert search_rollouts(mushgym.game(env_id)) == ("random", "greedy"), env_id
