"""The games of mushgym, importable as ``mushgym.envs.<env id>`` (``from mushgym.envs import fungi_v0``).

Each game is a package here (see :mod:`mushgym.registry`). An env id such as
``fungi_v0`` is an alias of its game's env module (``mushgym.envs.fungi.env``),
resolved on first use; folders named in ``MUSHGYM_GAMES_PATH`` join this
package, so games written outside the repository register the same way.
"""

import importlib.abc
import importlib.util
import sys
from pathlib import Path as _Path

from mushgym.core.cache import refresh_game_caches as _refresh_game_caches
from mushgym.registry import RetiredEnv as _RetiredEnv
from mushgym.registry import RetiredEnvError as _RetiredEnvError
from mushgym.registry import env_modules as _env_modules
from mushgym.registry import extra_game_folders as _extra_game_folders
from mushgym.registry import retired_envs as _retired_envs
from mushgym.registry import retired_message as _retired_message

__path__.extend(p for p in _extra_game_folders() if p not in __path__)  # noqa: F821 (package __path__)

for _folder in list(__path__):  # noqa: F821
    if _Path(_folder).is_dir():
        _refresh_game_caches(_Path(_folder).resolve())


def __getattr__(name):
    modules = _env_modules()
    if name in modules:
        return importlib.import_module(modules[name])
    if name in _retired_envs():  # PettingZoo's convention: importable, every constructor names the new id
        return _RetiredEnv(name)
    raise AttributeError(f"module 'mushgym.envs' has no attribute {name!r}; registered envs: {sorted(modules)}")


def __dir__():
    return sorted(set(globals()) | set(_env_modules()))


class _EnvIdAlias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """``import mushgym.envs.fungi_v0`` -> the env module of ``fungi_v0``."""

    prefix = __name__ + "."

    def find_spec(self, fullname, path=None, target=None):
        if not fullname.startswith(self.prefix):
            return None
        env_id = fullname[len(self.prefix) :]
        if "." in env_id or (env_id not in _env_modules() and env_id not in _retired_envs()):
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec):
        env_id = spec.name[len(self.prefix) :]
        if env_id in _retired_envs():
            raise _RetiredEnvError(_retired_message(env_id))
        return importlib.import_module(_env_modules()[env_id])

    def exec_module(self, module):
        pass


if not any(isinstance(f, _EnvIdAlias) for f in sys.meta_path):
    sys.meta_path.append(_EnvIdAlias())

import mushgym as _mushgym  # noqa: E402

_mushgym.setup()  # the engine's set-up, before any game's kernels (see mushgym/__init__.py)
