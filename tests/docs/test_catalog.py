"""The command line's quick answers: ``import mushgym`` loads no numba, and ``mushgym list`` /
``describe`` read a catalog (mushgym.catalog) that matches the registry and is read again
whenever a file it depends on changes. Speed itself is measured outside the tests (docs: Speed, the command line's
start-up)."""

import json
import os
import subprocess
import sys

import pytest

import mushgym
from mushgym import catalog as catalog_module
from mushgym import registry
from mushgym.cli import main


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("MUSHGYM_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _subprocess(code: str, cache_dir) -> subprocess.CompletedProcess:
    env = dict(os.environ, MUSHGYM_CACHE_DIR=str(cache_dir))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600)


def test_the_catalog_says_what_the_registry_says(cache_dir):
    entries = catalog_module.catalog()
    assert sorted(entries) == registry.list_envs()
    for env_id, entry in entries.items():
        module = registry.env_module(env_id)
        assert entry["doc"] == (module.__doc__ or "").strip()
        choices = {k: str(list(v)) for k, v in module.Game.option_choices.items() if not k.endswith("_path")}
        assert entry["options"] == choices
        game = mushgym.game(env_id)
        assert entry["header"] == catalog_module.header(env_id, game)
        assert f"{game.num_actions} actions" in entry["header"]
    # the file round-trips: a second read comes from it and is the same
    assert catalog_module.catalog_path().is_file()
    assert catalog_module.catalog() == entries


def test_the_catalog_is_read_again_when_a_file_changes_or_the_file_is_bad(cache_dir, tmp_path, monkeypatch):
    reads = []
    live = {"toy_v0": {"doc": "# Toy\n\ntext", "options": {"num_players": "[2]"}, "header": "toy_v0 with {}"}}
    monkeypatch.setattr(catalog_module, "read_registry", lambda: reads.append(1) or json.loads(json.dumps(live)))
    games = tmp_path / "games"
    (games / "toy").mkdir(parents=True)
    source = games / "toy" / "env.py"
    source.write_text('"""# Toy"""\n')
    folders = catalog_module.game_folders()
    monkeypatch.setattr(catalog_module, "game_folders", lambda: [*folders, games])

    assert catalog_module.catalog() == live and len(reads) == 1
    assert catalog_module.catalog() == live and len(reads) == 1  # from the file
    source.write_text('"""# Toy, edited"""\n')  # size and time change
    assert catalog_module.catalog() == live and len(reads) == 2
    (games / "toy" / "data.toml").write_text("x = 1\n")  # a new file
    catalog_module.catalog()
    assert len(reads) == 3
    (games / "toy" / "__pycache__").mkdir()
    (games / "toy" / "__pycache__" / "env.cpython.nbi").write_bytes(b"numba")  # caches do not count
    catalog_module.catalog()
    assert len(reads) == 3
    for bad in (
        "{not json",
        json.dumps({"fingerprint": catalog_module.fingerprint(), "envs": {"x": {"doc": 1}}}),
        json.dumps([1, 2]),
    ):
        catalog_module.catalog_path().write_text(bad)
        assert catalog_module.catalog() == live
    assert len(reads) == 6


def test_list_and_describe_from_a_warm_catalog_import_no_numba(cache_dir, capsys):
    assert main(["list"]) == 0
    assert main(["describe", "fungi_v0", "--section", "observation"]) == 0
    expected = capsys.readouterr().out
    code = (
        "import sys\nfrom mushgym.cli import main\nmain(['list'])\n"
        "main(['describe', 'fungi_v0', '--section', 'observation'])\n"
        "assert 'numba' not in sys.modules and 'numpy' not in sys.modules, 'imported numba or numpy'\n"
    )
    out = _subprocess(code, cache_dir)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout == expected


def test_help_and_import_mushgym_load_no_numpy(cache_dir):
    code = (
        "import sys\nimport mushgym\nfrom mushgym.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit as e:\n    assert e.code == 0\n"
        "assert 'numpy' not in sys.modules and 'numba' not in sys.modules\n"
        "print(mushgym.__version__)\n"
    )
    out = _subprocess(code, cache_dir)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "describe" in out.stdout and out.stdout.split()[-1] == mushgym.__version__


def test_describe_with_options_reads_the_game_and_unknown_envs_name_the_choices(cache_dir, capsys):
    assert main(["describe", "mycology_v1", "--option", "num_players=4"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == catalog_module.header("mycology_v1", mushgym.game("mycology_v1", num_players=4))
    with pytest.raises(SystemExit, match="registered envs: fungi_v0"):
        main(["describe", "nope_v0"])


def test_the_engine_is_set_up_on_first_use():
    code = (
        "import sys, mushgym\nassert 'numba' not in sys.modules\n"
        "from mushgym.game import Game\n"  # the submodule does not hide mushgym.game()
        "assert callable(mushgym.game) and mushgym.Game is Game\n"
        "import pettingzoo\nfrom mushgym.envs import fungi_v0\n"
        "assert mushgym._set_up\n"
        "env = pettingzoo.make('aec', 'mushgym/fungi-v0')\n"
        "print(env.unwrapped.metadata['name'], mushgym.game('fungi_v0').num_actions)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["fungi_v0", "450"]
