"""The `mushgym` command line."""

import re
import subprocess
import sys

import pytest

import mushgym
from mushgym import cli


def test_list_shows_every_env(capsys):
    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    for env_id in mushgym.list_envs():
        assert env_id in out


def test_console_entry_point_runs():
    out = subprocess.run([sys.executable, "-m", "mushgym", "list"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and "fungi_v0" in out.stdout


@pytest.mark.parametrize("env_id", mushgym.list_envs())
def test_play_a_whole_game_from_the_menu(env_id, monkeypatch, capsys):
    """A scripted human: one non-number, one illegal number, then the first listed action each turn."""
    seen = []
    answers = iter(["hello", "99999"])
    menu = [""]

    def fake_input(prompt=""):
        text = capsys.readouterr().out
        seen.append(text)
        if "your actions:" in text:
            menu[0] = text.split("your actions:")[-1]
        try:
            return next(answers)
        except StopIteration:
            return re.findall(r"^\s+(\d+)\s", menu[0], flags=re.M)[0]

    monkeypatch.setattr("builtins.input", fake_input)
    assert cli.main(["play", env_id, "--seed", "3"]) == 0
    out = "".join(seen) + capsys.readouterr().out
    assert "type one of the numbers listed" in out
    assert "is not a legal action now" in out
    assert "game over" in out


@pytest.mark.parametrize("opponent", ["random", "greedy"])
def test_play_menu_is_numbered_from_one_in_words_against_any_opponent(opponent, monkeypatch, capsys):
    answers = iter(["1"] * 2000)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert cli.main(["play", "fungi_v0", "--seed", "4", "--opponent", opponent]) == 0
    out = capsys.readouterr().out
    menu = out.split("your actions:")[1].split("your move")[0]
    numbers = [int(n) for n in re.findall(r"^\s+(\d+)\s", menu, flags=re.M)]
    assert numbers == list(range(1, len(numbers) + 1))
    assert "take Forest #" in menu or "take the decay pile" in menu  # moves in words, not raw ids
    assert "Card names:" in out  # the legend of the abbreviations
    assert "game over" in out


def test_play_rejects_an_unknown_opponent():
    with pytest.raises(SystemExit, match="unknown agent 'greddy' \\(did you mean 'greedy'\\?\\)"):
        cli.main(["play", "fungi_v0", "--opponent", "greddy"])
    with pytest.raises(SystemExit, match="no saved model at nowhere/model.pt"):
        cli.main(["play", "fungi_v0", "--opponent", "nowhere/model.pt"])


def test_play_quits_cleanly_and_rejects_bad_seat(monkeypatch, capsys):
    monkeypatch.setattr("builtins.input", lambda prompt="": "q")
    assert cli.main(["play", "fungi_v0", "--seed", "1"]) == 0
    assert "the table as it stands" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="--seat"):
        cli.main(["play", "fungi_v0", "--seat", "5"])
    capsys.readouterr()
    assert cli.main(["play", "nope_v0"]) == 2  # the library's message, one line, no traceback
    assert "unknown env id 'nope_v0'" in capsys.readouterr().err
    with pytest.raises(SystemExit, match="NAME=VALUE"):
        cli.main(["play", "fungi_v0", "--opt", "num_players"])
