"""Files only the judge's own user may read: the SQLite database (password hashes, players' addresses) and the
outbox folder of mail written to disk (addresses, press, replies). Made that way, and tightened at start where an
earlier judge, or an administrator's copy, left them readable by every local user (issue 41)."""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

log = logging.getLogger(__name__)

FILE_MODE = 0o600
FOLDER_MODE = 0o700


def private_folder(folder: Path) -> None:
    """Make `folder` (and any parent it needs) for the judge's user alone, or take from an existing one what
    others could do in it, and from each file in it what they could read."""
    if not folder.exists():
        folder.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
        return
    _tighten(folder)
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_file(follow_symlinks=False):
                _tighten(Path(entry.path))


def private_file(path: Path) -> None:
    """Create `path` empty for the judge's user alone if it is not there; else take from it what others could do."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE))
    except FileExistsError:
        _tighten(path)


def _tighten(path: Path) -> None:
    """Take from `path` what its group and others may do (its owner's rights stay as they are)."""
    found = stat.S_IMODE(path.stat().st_mode)
    if found & 0o077:
        try:
            path.chmod(found & 0o700)
        except PermissionError:
            log.warning("%s is readable by others (mode %o) and not the judge's to change", path, found)
            return
        log.warning("%s was readable by others (mode %o): now %o", path, found, stat.S_IMODE(path.stat().st_mode))
