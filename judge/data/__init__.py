"""The judge's data files, found through `importlib.resources` so an installed wheel works from any directory.

In the repository they live at the top, as the project's layout has them (`maps/`, `templates/`, `migrations/`);
`pyproject.toml` maps them into this package (`judge.data.maps`, ...), so a wheel carries them inside the package
and an editable install finds them where they are.
"""

from __future__ import annotations

from importlib.resources import as_file, files
from importlib.resources.abc import Traversable
from pathlib import Path


def data_dir(name: str) -> Traversable:
    """The folder of data files `name` (`maps`, `templates`, `migrations`) as the installed package has it."""
    return files(f"judge.data.{name}")


def data_path(name: str) -> Path:
    """The same folder as a path on disk (Jinja's loader and alembic read files by path). Wheels are installed
    unpacked, so the folder is a real directory; `as_file` would extract a zipped one."""
    with as_file(data_dir(name)) as path:
        return Path(path)
