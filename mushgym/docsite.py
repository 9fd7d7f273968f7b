"""The docs site's generated pages: one page per registered env, made from the code.

``mkdocs build`` (``docs/hooks.py``) calls :func:`env_pages`: each env of
``mushgym.list_envs()`` gets ``envs/<env id>.md`` from its env module's docstring (the spec
table, the observation and action index tables and the version history, as ``mushgym
describe`` prints them), a table of its options with their choices and defaults, and a
picture of its table (``envs/<env id>.svg``, drawn by the game's own ``render.py`` from a
seeded game). Nothing is copied by hand, so a page cannot drift from its env.

The env docstrings themselves are filled the same way: an env module writes its docstring
with placeholders (``@OBSERVATION_TABLE@``, ``@NUM_ACTIONS@``, ...) and replaces them on import
with :func:`fill_env_docstring` from its declarations (``Layout.table()``, the sizes).
"""

from __future__ import annotations

import re
from typing import Any, Mapping

import numpy as np

from . import registry

PLACEHOLDER = re.compile(r"@[A-Z][A-Z0-9_]*@")


def fill_env_docstring(template: str, values: Mapping[str, Any]) -> str:
    """``template`` with each placeholder ``@NAME@`` replaced by ``str(values["NAME"])``. A
    placeholder without a value, or a value without a placeholder, is an error: the tables and
    sizes of an env's docstring come from its declarations and cannot drift from them."""
    unused = sorted(name for name in values if f"@{name}@" not in template)
    if unused:
        raise ValueError(f"env docstring: no placeholder for {unused}")
    for name, value in values.items():
        template = template.replace(f"@{name}@", str(value))
    left = sorted(set(PLACEHOLDER.findall(template)))
    if left:
        raise ValueError(f"env docstring: no value for {left}")
    return template


PICTURE_SEED = 0
PICTURE_STEPS = 12  # random legal decisions played before the picture: a table in play


def picture_state(game, seed: int = PICTURE_SEED, steps: int = PICTURE_STEPS) -> np.ndarray:
    """The state drawn on an env's page: ``steps`` seeded random legal decisions from the deal."""
    state = game.new_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if game.is_terminal(state):
            break
        game.step_inplace(state, int(rng.choice(game.legal_actions(state))))
    return state


def picture_svg(env_id: str) -> str:
    """The env's table as SVG, seen by nobody (everything face up)."""
    from .render import draw_state

    game = registry.game(env_id)
    return draw_state(game, picture_state(game), None).to_svg()


def options_table(env_id: str) -> str:
    cls = registry.env_module(env_id).Game
    rows = ["| option | choices | default |", "| --- | --- | --- |"]
    for name, choices in cls.option_choices.items():
        shown = ", ".join(f"`{c!r}`" for c in choices)
        rows.append(f"| `{name}` | {shown} | `{cls.default_options[name]!r}` |")
    return "\n".join(rows)


def env_page(env_id: str, picture: str | None = None) -> str:
    """The markdown page of ``env_id``: its docstring, with the options and the picture after the
    spec table (``picture``: the picture's file name next to the page, or None for none)."""
    doc = (registry.env_module(env_id).__doc__ or "").strip("\n")
    lines = doc.splitlines()
    title = lines[0].lstrip("# ").strip() if lines and lines[0].startswith("# ") else env_id
    body = lines[1:] if lines and lines[0].startswith("# ") else lines
    # the spec table is the first table of the docstring: the options and the picture follow it
    i = 0
    while i < len(body) and not body[i].startswith("|"):
        i += 1
    while i < len(body) and body[i].startswith("|"):
        i += 1
    extra = [
        "",
        "### Options",
        "",
        f'`mushgym.make("{env_id}", option=value, ...)`; a wrong name or value is an error '
        "that lists the valid choices.",
        "",
        options_table(env_id),
        "",
    ]
    if picture is not None:
        extra += [
            f"![{title}: the table after {PICTURE_STEPS} random decisions (seed {PICTURE_SEED}), "
            f"everything face up]({picture})",
            "",
        ]
    head = [f"# {title} (`{env_id}`)", ""]
    return "\n".join(head + body[:i] + extra + body[i:]) + "\n"


def env_pages(pictures: bool = True) -> dict[str, str]:
    """``{path: content}`` of every generated file: ``envs/<id>.md`` and ``envs/<id>.svg``."""
    files = {}
    for env_id in registry.list_envs():
        files[f"envs/{env_id}.md"] = env_page(env_id, f"{env_id}.svg" if pictures else None)
        if pictures:
            files[f"envs/{env_id}.svg"] = picture_svg(env_id)
    return files
