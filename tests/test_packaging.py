"""The judge as a wheel: built from the checkout, installed into a fresh virtual environment outside it, and run
from another directory. Maps, templates and migrations are package data found through importlib.resources, so
an installed judge never looks for the repository (issue: "a non-editable install runs judge serve, judge demo,
judge adjudicate and judge map check from any directory")."""

from __future__ import annotations

import json
import os
import signal
import smtplib
import subprocess
import sys
import time
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest

from judge.testing.dovecot import free_port

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_and_data_folder_is_in_the_wheels_package_list() -> None:
    """pyproject.toml names its packages (the mapped data folders cannot be discovered): a new package or
    template folder that is not named would be missing from the wheel."""
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    folders = {"judge": ROOT / "judge", "judge.data.maps": ROOT / "maps", "judge.data.templates": ROOT / "templates"}
    folders["judge.data.migrations"] = ROOT / "migrations"
    folders["judge.data.variant_docs"] = ROOT / "docs" / "variants"
    found = set()
    for name, top in folders.items():
        for folder in [top, *(p for p in top.rglob("*") if p.is_dir() and p.name != "__pycache__")]:
            if any(f.suffix in (".py", ".toml", ".j2", ".md") for f in folder.iterdir()):
                found.add(".".join([name, *folder.relative_to(top).parts]))
    assert found == listed


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The `bin` folder of a fresh venv with the judge's wheel (and its pinned dependencies) installed."""
    base = tmp_path_factory.mktemp("wheel")
    wheels = base / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(wheels), str(ROOT)],
        check=True,
        cwd=base,
    )
    (wheel,) = wheels.glob("judge-*.whl")
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", str(wheel)], check=True, cwd=base)
    yield venv / "bin"


@pytest.fixture
def elsewhere(tmp_path: Path) -> Path:
    """A working directory with nothing of the checkout in it."""
    where = tmp_path / "elsewhere"
    where.mkdir()
    return where


def _run(bin_dir: Path, where: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "JUDGE_CONFIG")}
    return subprocess.run(
        [str(bin_dir / "judge"), *args], input=stdin, capture_output=True, text=True, cwd=where, env=env, timeout=300
    )


@pytest.mark.slow
def test_the_installed_judge_is_not_the_checkout(installed: Path, elsewhere: Path) -> None:
    found = subprocess.run(
        [str(installed / "python"), "-c", "import judge.data; print(judge.data.data_path('maps'))"],
        capture_output=True,
        text=True,
        cwd=elsewhere,
        check=True,
    )
    assert not found.stdout.strip().startswith(str(ROOT))
    assert (Path(found.stdout.strip()) / "standard.toml").is_file()


@pytest.mark.slow
def test_an_installed_judge_adjudicates_from_any_directory(installed: Path, elsewhere: Path) -> None:
    case = {
        "variant": "standard",
        "units": [{"power": "England", "unit": "F", "at": "nth"}, {"power": "France", "unit": "A", "at": "bel"}],
        "orders": {"England": ["F North Sea - Belgium"]},
    }
    done = _run(installed, elsewhere, "adjudicate", stdin=json.dumps(case))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["orders"][0]["result"] == "fails"


@pytest.mark.slow
def test_an_installed_judge_checks_every_map_it_ships(installed: Path, elsewhere: Path) -> None:
    done = _run(installed, elsewhere, "map", "check")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "standard: ok" in done.stdout
    assert "multiplomacy: ok" in done.stdout


@pytest.mark.slow
def test_an_installed_judge_plays_its_demo(installed: Path, elsewhere: Path) -> None:
    done = _run(installed, elsewhere, "demo")
    assert done.returncode == 0, done.stderr
    assert "Movement results for Spring of 1901." in done.stdout
    assert "Adjustment results for Winter of 1901." in done.stdout


@pytest.mark.slow
def test_an_installed_judge_serves_mail_and_stops_on_sigterm(installed: Path, elsewhere: Path) -> None:
    port = free_port()
    (elsewhere / "judge.toml").write_text(
        f'[intake.smtp]\nport = {port}\n\n[outbound]\noutbox_dir = "outbox"\n', encoding="utf-8"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "JUDGE_CONFIG")}
    server = subprocess.Popen([str(installed / "judge"), "serve"], cwd=elsewhere, env=env)
    try:
        message = EmailMessage()
        message["From"] = "player@example.org"
        message["To"] = "judge@localhost"
        message["Subject"] = "help"
        message.set_content("HELP")
        for _ in range(300):  # the daemon upgrades its database before it listens
            try:
                with smtplib.SMTP("127.0.0.1", port, timeout=5) as smtp:
                    smtp.send_message(message)
                break
            except OSError:
                time.sleep(0.1)
        outbox = elsewhere / "outbox"
        for _ in range(600):
            if list(outbox.glob("*.eml")):
                break
            time.sleep(0.1)
        replies = list(outbox.glob("*.eml"))
        assert replies, "no reply in the outbox"
        assert "player@example.org" in replies[0].read_text(encoding="utf-8", errors="replace")
    finally:
        server.send_signal(signal.SIGTERM)
        code = server.wait(timeout=60)
    assert code == 0
    assert (elsewhere / "var" / "judge.sqlite").is_file()
