"""The docs site (mkdocs.yml, docs/, mushgym.docsite): built in strict mode, one page per env
generated from its docstring, and a broken link or reference fails the build.

Needs the `docs` extra (mkdocs, mkdocs-material, mkdocstrings[python]; the `dev` extra has
them too). The builds run with NUMBA_DISABLE_JIT=1: the pictures take a few game steps, so
plain Python is quicker than compiling kernels.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from paths import REPO_ROOT, TESTS_DIR  # noqa: E402,F401

import mushgym
from mushgym import docsite

pytest.importorskip("mkdocs")
pytest.importorskip("material")
pytest.importorskip("mkdocstrings")

ROOT = REPO_ROOT


def build(config: Path, site: Path, **env: str) -> subprocess.CompletedProcess:
    environ = dict(os.environ, NUMBA_DISABLE_JIT="1", NO_MKDOCS_2_WARNING="1", **env)
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site)],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    r = build(ROOT / "mkdocs.yml", out)
    assert r.returncode == 0, r.stdout + r.stderr
    return out


def test_the_site_builds_in_strict_mode_with_a_page_per_env(site):
    for env_id in mushgym.list_envs():
        page = (site / "envs" / env_id / "index.html").read_text()
        assert f"<code>{env_id}</code>" in page
        headings = re.findall(r"<h3 id=\"[^\"]*\">([^<]*)", page)
        for wanted in ("Options", "Observation space", "Action space", "Version history"):
            assert any(h.startswith(wanted) for h in headings), (env_id, wanted, headings)
        assert page.count("<table") >= 3, env_id  # spec, options, observation (and action) tables
        assert f'src="../{env_id}.svg"' in page
        assert (site / "envs" / f"{env_id}.svg").read_text().lstrip().startswith("<svg")
    for guide in ("functional", "vector", "training", "rllib", "openspiel"):
        assert (site / "guides" / guide / "index.html").is_file()
    for page in ("agents", "models", "speed", "records", "safety", "testing"):
        assert (site / page / "index.html").is_file(), page
    agents = (site / "agents" / "index.html").read_text()
    for game in ("Fungi, 2 players", "Mycology"):  # a table per game
        assert f">{game}</h3>" in agents or f">{game}<" in agents, game
    api = (site / "api" / "index.html").read_text()
    assert "make_sb3" in api and "MaskableVecEnv" in api and "register" in api


def test_env_pages_are_the_docstrings(site):
    """The page is generated from the env module's docstring: every table row of it is on the
    page (so a changed docstring changes the page: nothing to keep in step by hand)."""
    for env_id in mushgym.list_envs():
        doc = mushgym.registry.env_module(env_id).__doc__
        page = docsite.env_page(env_id, "x.svg")
        rows = [line for line in doc.splitlines() if line.startswith("|")]
        assert rows and all(row in page for row in rows), env_id
        assert "### Version history" in page and "### Options" in page
        for option in mushgym.registry.env_module(env_id).Game.option_choices:
            assert f"| `{option}` |" in page


def test_a_broken_link_or_reference_fails_the_build(tmp_path):
    docs = tmp_path / "docs"
    (docs / "guides").mkdir(parents=True)
    for f in (ROOT / "docs").glob("*.md"):
        (docs / f.name).write_text(f.read_text())
    for f in (ROOT / "docs" / "guides").glob("*.md"):
        (docs / "guides" / f.name).write_text(f.read_text())
    vector = docs / "guides" / "vector.md"
    vector.write_text(vector.read_text() + "\nSee [the missing page](nowhere.md) and [`gone`][mushgym.vector.gone].\n")
    config = (ROOT / "mkdocs.yml").read_text()
    config = config.replace("docs_dir: docs", f"docs_dir: {docs}").replace(
        "  - docs/hooks.py", f"  - {ROOT / 'docs' / 'hooks.py'}"
    )
    (tmp_path / "mkdocs.yml").write_text(config)
    r = build(tmp_path / "mkdocs.yml", tmp_path / "site", MUSHGYM_DOCS_PICTURES="0")
    out = r.stdout + r.stderr
    assert r.returncode != 0, out
    assert "nowhere.md" in out and "mushgym.vector.gone" in out, out


def test_each_games_rules_are_a_page_with_its_pictures(site):
    for rules in sorted((ROOT / "envs").glob("*/RULES.md")):
        page = (site / "rules" / rules.parent.name / "index.html").read_text()
        first_heading = next(line for line in rules.read_text().splitlines() if line.startswith("# "))
        assert first_heading[2:].split()[0] in page
        for src in re.findall(r'<img[^>]+src="([^"]+)"', page):
            assert (site / "rules" / rules.parent.name / src).resolve().is_file(), (rules, src)


def test_every_link_of_the_readme_resolves():
    """The README is read on GitHub, where nothing is built: its relative links and pictures must
    name files of the repository (the docs pages themselves are checked by the strict build)."""
    readme = (ROOT / "README.md").read_text()
    links = re.findall(r"\]\(([^)\s]+)\)", readme)
    local = [link.split("#")[0] for link in links if not re.match(r"[a-z]+://", link) and not link.startswith("#")]
    assert len(local) >= 15
    missing = [link for link in local if not (ROOT / link).exists()]
    assert not missing, missing


BENCHMARK_PATH = re.compile(r"benchmarks/[A-Za-z0-9_.*<>/-]*[A-Za-z0-9_/*>]")


def benchmark_paths(text: str) -> list[tuple[str, str]]:
    """Every ``benchmarks/...`` path a text names, with the words after it. Left out: patterns
    (``*``, ``<stem>``), placeholders in capitals (``FILE``), model files (``.pt``, which the
    agents' own tests check), and a path said to be in git history ("at commit ...", "of that
    commit") within the words that follow it."""
    flat = " ".join(text.split())
    out = []
    for m in BENCHMARK_PATH.finditer(flat):
        path, after = m.group(0), flat[m.end() : m.end() + 160]
        if any(c in path for c in "*<>") or re.search(r"[A-Z]{3,}", path) or path.endswith(".pt"):
            continue
        if re.match(r"[^.;]*?(at commit|of that commit)", after):
            continue
        out.append((path, after[:60]))
    return out


def test_every_benchmark_record_the_docs_name_exists():
    """A figure names its record and the command that made it: every file of ``benchmarks/``
    that the README, the docs pages, the games' RULES.md pages and the benchmarks' README name
    is in the repository (records taken out of the tree are named with the commit that holds
    them)."""
    texts = [
        ROOT / "README.md",
        ROOT / "benchmarks" / "README.md",
        *sorted((ROOT / "docs").rglob("*.md")),
        *sorted((ROOT / "envs").glob("*/RULES.md")),
    ]
    missing, seen = [], 0
    for path in texts:
        for name, after in benchmark_paths(path.read_text(encoding="utf-8")):
            seen += 1
            if not (ROOT / name).exists():
                missing.append(f"{path.relative_to(ROOT)}: {name} ({after}...)")
    assert seen >= 30
    assert not missing, "\n".join(missing)


def test_the_record_check_reads_paths_as_meant():
    text = (
        "record `benchmarks/results/x.json`, the five others `benchmarks/results/a-*.json` at commit\n"
        "cf95837; `benchmarks/training/m.pt`; `python benchmarks/compile_time.py fungi_v0 --json FILE`;"
        " `benchmarks/old.txt` at commit cf95837."
    )
    assert [p for p, _ in benchmark_paths(text)] == ["benchmarks/results/x.json", "benchmarks/compile_time.py"]
