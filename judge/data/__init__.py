"""The judge's data files, found through `importlib.resources` so an installed wheel works from any directory.

In the repository they live at the top, as the project's layout has them (`maps/`, `templates/`, `migrations/`);
this package holds a link to each (`judge/data/maps` -> `../../maps`, ...), so a wheel carries them inside the
package (the build copies what the links point at) and the checkout finds them through the same names.

The links, rather than `pyproject.toml` mapping each folder into the package (`package-dir`), keep the package's
layout simple: an editable install is then one path in a `.pth` file, where a mapped layout needs setuptools'
import hook, whose own imports (pathlib, importlib.util) took 9 ms of every start of every command.

`importlib.resources` itself is imported only where it is needed: it brings tempfile, shutil, zipfile and more
(about 5 ms), and `judge adjudicate` reads its first map through `data_folder`, where the folder of a package on
disk is found without it (see `data_folder`).
"""

from __future__ import annotations

import os
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable
    from pathlib import Path


def data_dir(name: str) -> Traversable:
    """The folder of data files `name` (`maps`, `templates`, `migrations`, `variant_docs`) as the installed package
    has it."""
    from importlib.resources import files

    return files(f"judge.data.{name}")


def data_path(name: str) -> Path:
    """The same folder as a path on disk (Jinja's loader and alembic read files by path)."""
    from pathlib import Path

    return Path(data_folder(name))


def data_folder(name: str) -> str:
    """The folder of data files `name` on disk, as a string: what `data_path` gives, without pathlib (its import
    brings fnmatch, urllib.parse and ipaddress: a twentieth of `judge adjudicate`'s start, which reads its map
    through this). Wheels are installed unpacked, so the folder is a real directory; `as_file` would extract a
    zipped one.

    A package the import system found as a file on disk (a wheel installed unpacked, an editable install) has its
    resources in the folder of its `__init__`: that is the folder `importlib.resources.files` gives for it (the
    standard loaders' `FileReader`), so it is taken from the package's spec directly. Any other loader (a zip,
    a namespace package) goes through `importlib.resources`."""
    spec = import_module(f"judge.data.{name}").__spec__
    if spec is not None and spec.has_location and spec.origin is not None and os.path.isfile(spec.origin):
        return os.path.dirname(spec.origin)
    from importlib.resources import as_file

    with as_file(data_dir(name)) as path:
        return str(path)
