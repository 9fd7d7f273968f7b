"""MkDocs hooks (``hooks:`` in mkdocs.yml): the generated pages of mushgym's docs site.

Each env of ``mushgym.list_envs()`` gets a page and a picture (``mushgym.docsite``), and the
navigation lists them, so a new or changed env shows up on the next build with no edit here.
``MUSHGYM_DOCS_PICTURES=0`` leaves the pictures out (a quicker build).
"""

from __future__ import annotations

import os

from mkdocs.structure.files import File

import mushgym
from mushgym import docsite


def _pictures() -> bool:
    return os.environ.get("MUSHGYM_DOCS_PICTURES", "1") != "0"


def on_config(config, **kwargs):
    envs = [{env_id: f"envs/{env_id}.md"} for env_id in mushgym.list_envs()]
    config["nav"] = [
        {"Home": "index.md"},
        {"Guides": [
            {"Functional API": "guides/functional.md"},
            {"Vector API": "guides/vector.md"},
            {"Training": "guides/training.md"},
            {"OpenSpiel": "guides/openspiel.md"},
        ]},
        {"Environments": envs},
        {"API reference": "api.md"},
        {"Hardening": "HARDENING.md"},
    ]
    return config


def on_files(files, config, **kwargs):
    for path, content in docsite.env_pages(pictures=_pictures()).items():
        files.append(File.generated(config, path, content=content))
    return files
