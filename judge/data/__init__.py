"""The judge's data files, found through `importlib.resources` so an installed wheel works from any directory.

In the repository they live at the top, as the project's layout has them (`maps/`, `templates/`, `migrations/`);
`pyproject.toml` maps them into this package (`judge.data.maps`, ...), so a wheel carries them inside the package
and an editable install finds them where they are.

`importlib.resources` itself is imported only where it is needed: it brings tempfile, shutil, zipfile and more
(about 5 ms), and `judge adjudicate` reads its first map through `data_path`, where the folder of a package on
disk is found without it (see `data_path`).
"""

from __future__ import annotations

import os
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable
    from pathlib import Path


def data_dir(name: str) -> Traversable:
    """The folder of data files `name` (`maps`, `templates`, `migrations`) as the installed package has it."""
    from importlib.resources import files

    return files(f"judge.data.{name}")


def data_path(name: str) -> Path:
    """The same folder as a path on disk (Jinja's loader and alembic read files by path). Wheels are installed
    unpacked, so the folder is a real directory; `as_file` would extract a zipped one.

    A package the import system found as a file on disk (a wheel installed unpacked, an editable install) has its
    resources in the folder of its `__init__`: that is the folder `importlib.resources.files` gives for it (the
    standard loaders' `FileReader`), so it is taken from the package's spec directly. Any other loader (a zip,
    a namespace package) goes through `importlib.resources`."""
    from pathlib import Path

    spec = import_module(f"judge.data.{name}").__spec__
    if spec is not None and spec.has_location and spec.origin is not None and os.path.isfile(spec.origin):
        return Path(spec.origin).parent
    from importlib.resources import as_file

    with as_file(data_dir(name)) as path:
        return Path(path)
