"""What a newcomer looks for: versions, short reprs, the index tables, the README's promises."""

import re

import pytest
from paths import REPO_ROOT, TESTS_DIR  # noqa: E402,F401

import mushgym
from mushgym import cli

ROOT = REPO_ROOT
README = (ROOT / "README.md").read_text()


def test_version_matches_pyproject_and_py_typed_ships():
    try:
        import tomllib
    except ImportError:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert mushgym.__version__ == meta["project"]["version"]
    assert (ROOT / "mushgym" / "py.typed").exists()
    assert "py.typed" in meta["tool"]["setuptools"]["package-data"]["*"]
    description = meta["project"]["description"]
    for env_id in mushgym.list_envs():  # the description names every game the package ships
        assert env_id.split("_")[0].capitalize() in description, env_id
    assert "coming" not in description
    assert meta["project"]["license"] == "MIT" and (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert (ROOT / "CHANGELOG.md").read_text().startswith("# Changelog")


@pytest.mark.parametrize("env_id", mushgym.list_envs())
def test_spaces_print_in_one_short_line(env_id):
    env = mushgym.make(env_id)
    text = repr(env.observation_space(env.possible_agents[0]))
    assert "\n" not in text and len(text) < 200, text
    box = env.observation_space(env.possible_agents[0])["observation"]
    assert box.contains(box.sample())


def test_random_rollouts_result_prints_short_and_keeps_dict_access():
    res = mushgym.game("fungi_v0").random_rollouts(200, seed=0)
    text = repr(res)
    assert len(text) < 300 and "games=200" in text
    assert res["games"] == res.games == 200 and res["lengths"].shape == (200,)
    assert res["steps"] == int(res["lengths"].sum())
    assert str(res) == text


@pytest.mark.parametrize("env_id", mushgym.list_envs())
def test_describe_shows_the_observation_index_table(env_id, capsys):
    assert cli.main(["describe", env_id, "--section", "observation"]) == 0
    out = capsys.readouterr().out
    assert "| index" in out and "Action space" not in out
    with pytest.raises(SystemExit, match="unknown env"):
        cli.main(["describe", "nope_v0"])


def test_readme_names_what_newcomers_need():
    for phrase in (
        "SingleAgentEnv",
        "torch.set_num_threads(1)",
        "action_space(agent).seed(",
        "mushgym compile",
        "mushgym describe",
        "--minutes",
        "--opponent",
        '-m "not slow',
        'render_mode="rgb_array"',
    ):
        assert phrase in README, phrase
    for picture in re.findall(r"!\[[^\]]*\]\(([^)]+\.png)\)", README):
        assert (ROOT / picture).exists(), picture
    assert "docs/pictures/fungi_v0.png" in README and "docs/pictures/mycology_v1.png" in README


def test_the_readme_is_a_front_page():
    """At most about 150 lines, opening with the two set-up commands; the rest lives in docs/."""
    lines = README.splitlines()
    assert len(lines) <= 160, len(lines)
    first_block = README.split("```")[1]
    commands = [line for line in first_block.splitlines() if line.startswith("pip install")]
    assert len(commands) == 2 and "mushgym bench" in commands[0] and "python -m pytest -q" in commands[1]
    assert README.index("```") < README.index("\n\n", README.index("# mushgym")) + 3


def test_ci_runs_the_readmes_test_command_in_a_fresh_venv():
    ci = (ROOT / ".ci" / "run").read_text()
    test_line = next(line for line in README.splitlines() if "python -m pytest -q" in line and "pip install" in line)
    command = test_line.split("#")[0].strip()
    assert command in ci
    assert "-m venv" in ci and '. "$VENV/bin/activate"' in ci
