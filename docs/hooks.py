"""MkDocs hooks (``hooks:`` in mkdocs.yml): the generated pages of mushgym's docs site.

Each env of ``mushgym.list_envs()`` gets a page and a picture (``mushgym.docsite``), and the
navigation lists them, so a new or changed env shows up on the next build with no edit here.
``MUSHGYM_DOCS_PICTURES=0`` leaves the pictures out (a quicker build).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from mkdocs.structure.files import File

import mushgym
from mushgym import docsite, registry


def _pictures() -> bool:
    return os.environ.get("MUSHGYM_DOCS_PICTURES", "1") != "0"


SPHINX_ROLE = re.compile(r":(?:class|mod|func|meth|attr|data|exc|obj):(?=<code>)")
IMAGE_LINK = re.compile(r"(!\[[^\]]*\]\()([^)#\s]+\.(?:png|svg))(\))")


def rules_files() -> dict[str, Path]:
    """``rules/<game>.md`` -> the game's ``RULES.md``, for every game package that has one."""
    out = {}
    for folder in registry.game_folders():
        for rules in sorted(Path(folder).glob("*/RULES.md")):
            out[f"rules/{rules.parent.name}.md"] = rules
    return out


def rules_page(rules: Path) -> tuple[str, dict[str, bytes]]:
    """A RULES.md as a page of the site: its pictures (links relative to the file) copied next
    to the page under ``<game>-<name>``. Returns the text and ``{site path: picture bytes}``."""
    pictures: dict[str, bytes] = {}

    def relink(match):
        picture = (rules.parent / match.group(2)).resolve()
        if not picture.is_file():
            return match.group(0)  # left as it is: the strict build names the broken link
        name = f"{rules.parent.name}-{picture.name}"
        pictures[f"rules/{name}"] = picture.read_bytes()
        return f"{match.group(1)}{name}{match.group(3)}"

    return IMAGE_LINK.sub(relink, rules.read_text(encoding="utf-8")), pictures


def on_config(config, **kwargs):
    envs = [{env_id: f"envs/{env_id}.md"} for env_id in mushgym.list_envs()]
    rules = [{path.parent.name.capitalize(): page} for page, path in rules_files().items()]
    config["nav"] = [
        {"Home": "index.md"},
        {
            "Guides": [
                {"Functional API": "guides/functional.md"},
                {"Vector API": "guides/vector.md"},
                {"Training (SB3)": "guides/training.md"},
                {"Training on Ray RLlib": "guides/rllib.md"},
                {"Expert iteration": "guides/expert.md"},
                {"OpenSpiel": "guides/openspiel.md"},
                {"Watch and play": "watch-and-play.md"},
            ]
        },
        {"Environments": envs},
        {"Rules and choices": rules},
        {"Agents": "agents.md"},
        {"Trained models": "models.md"},
        {"Speed": "speed.md"},
        {"Benchmark records": "records.md"},
        {"Safe loading": "safety.md"},
        {"Testing": "testing.md"},
        {"Hardening": "HARDENING.md"},
        {"API reference": "api.md"},
    ]
    return config


def on_files(files, config, **kwargs):
    for path, content in docsite.env_pages(pictures=_pictures()).items():
        files.append(File.generated(config, path, content=content))
    for path, rules in rules_files().items():
        text, pictures = rules_page(rules)
        files.append(File.generated(config, path, content=text))
        for picture, data in pictures.items():
            files.append(File.generated(config, picture, content=data))
    return files


def on_page_content(html, **kwargs):
    """Docstrings name objects in Sphinx's ``:class:`x``` style; the API pages show the name alone."""
    return SPHINX_ROLE.sub("", html)
