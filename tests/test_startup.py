"""What `judge adjudicate` imports: the contract and the engine, and nothing a standard case does not run.

Its start-up is paid once per batch of cases by every program that calls it, and an import that creeps back in
(every variant's rules, the database, the mail, a stdlib module pulled in for one helper) is paid on every start
without anything else showing it. These tests look at which modules a fresh process holds, never at times (the
figures are `make bench`'s: bench/startup.py).
"""

from __future__ import annotations

import subprocess
import sys
from importlib.resources import as_file, files
from pathlib import Path

import pytest

from judge.data import data_path
from judge.engine.rules import Rules
from judge.variants import Variant, VariantRegistry

STANDARD_CASE = '{"variant": "standard", "orders": {"France": ["A par - bur"]}}\n'

OTHER_VARIANTS = {
    "judge.variants.hepta",
    "judge.variants.hepta_board",
    "judge.variants.hepta_claims",
    "judge.variants.hoplite",
    "judge.variants.mad",
    "judge.variants.mad_atlantis",
    "judge.variants.mad_boarding",
    "judge.variants.mad_placement",
    "judge.variants.multiplicity",
    "judge.variants.multiplomacy",
}
"""every variant's rule modules: a standard case runs the base `Rules` only"""

NOT_FOR_ADJUDICATION = {
    # the judge's other parts
    "judge.config",
    "judge.game",
    "judge.mail",
    "judge.picture",
    "judge.render",
    "judge.store",
    # their dependencies
    "alembic",
    "jinja2",
    "pyvips",
    "sqlalchemy",
    # stdlib modules that only building, serving or one helper used
    "importlib.resources",
    "logging",
    "subprocess",
    "sysconfig",
    "tempfile",
}


def _modules_after(code: str, stdin: str = "") -> list[set[str]]:
    """The modules a fresh interpreter holds after running `code`, and again after each `LIST` it writes (a line
    of its own); `code` writes nothing else on standard error."""
    listing = "print(*sorted(sys.modules), '--', sep='\\n', file=sys.stderr)"
    script = f"import sys\n{code.replace('LIST', listing)}\n{listing}\n"
    done = subprocess.run(
        [sys.executable, "-c", script], input=stdin, capture_output=True, text=True, check=True, timeout=120
    )
    return [set(part.split()) for part in done.stderr.split("--\n")[:-1]]


def _among(modules: set[str], names: set[str]) -> set[str]:
    """The modules that are one of `names` or inside one of them (`judge.store.db` is inside `judge.store`)."""
    return {m for m in modules if any(m == name or m.startswith(f"{name}.") for name in names)}


def test_adjudicate_imports_no_other_variant() -> None:
    """A standard case through the contract loads the base rules only; a variant's rule module comes with the
    first use of that variant, and `get_variant` still hands it out."""
    before, after = _modules_after(
        "from judge.contract import run_case\n"
        "outcome = run_case({'variant': 'standard', 'orders': {'France': ['A par - bur']}})\n"
        "assert outcome['orders'][0]['order'] == 'A par - bur', outcome\n"
        "LIST\n"
        "from judge.variants import get_variant\n"
        "assert get_variant('hoplite').rules_class.__name__ == 'HopliteRules'\n"
    )
    assert {"judge.contract", "judge.variants"} <= before
    assert not _among(before, OTHER_VARIANTS | NOT_FOR_ADJUDICATION)
    assert {"judge.variants.hoplite", "judge.variants.multiplicity"} <= after


def test_the_adjudicate_command_imports_only_the_contract() -> None:
    """`judge adjudicate` itself (the command line, not only the contract) imports nothing of the other commands:
    no database, mail, pictures or logging, no other variant."""
    (modules,) = _modules_after(
        "from judge.cli import main\nassert main(['adjudicate', '--jsonl']) == 0", STANDARD_CASE
    )
    assert "judge.contract" in modules
    assert not _among(modules, OTHER_VARIANTS | NOT_FOR_ADJUDICATION)


def test_a_command_given_no_case_reads_no_map() -> None:
    """The map and the TOML reader are loaded by the first case that needs them, not by the start."""
    (modules,) = _modules_after("from judge.cli import main\nassert main(['adjudicate', '--jsonl']) == 0")
    assert "judge.contract" in modules
    assert not modules & {"tomllib", "judge.data.maps"}


def test_the_stale_build_check_imports_only_os() -> None:
    """`import judge.engine` runs the compiled build's stale check on every start: it lists folders and reads
    times, and what building needs (a compiler's subprocess, scratch folders) is imported by building only."""
    (modules,) = _modules_after("import judge.speedups\njudge.speedups.stale()")
    assert not modules & {"shutil", "subprocess", "sysconfig", "tempfile"}


def test_listing_the_variants_imports_no_rule_module() -> None:
    """Names, count and membership come from the registry's declarations; only asking for a variant makes it."""
    (modules,) = _modules_after(
        "from judge.variants import VARIANTS\n"
        "assert sorted(VARIANTS)[:2] == ['hepta', 'hoplite'] and len(VARIANTS) == 7\n"
        "assert 'mad' in VARIANTS and 'chess' not in VARIANTS\n"
    )
    assert "judge.variants" in modules
    assert not _among(modules, OTHER_VARIANTS)


def test_the_variant_registry_makes_each_variant_once_and_takes_entries_as_a_dict_does() -> None:
    """A declared variant is made on first use and kept; a set entry replaces it, a deleted one is gone."""
    made: list[str] = []

    def declared() -> Variant:
        made.append("standard")
        return Variant("standard", "Standard", "standard", Rules)

    registry = VariantRegistry({"standard": declared})
    assert list(registry) == ["standard"] and "standard" in registry and made == []
    first = registry["standard"]
    assert registry["standard"] is first and made == ["standard"]
    other = Variant("other", "Other", "standard", Rules)
    registry["other"] = other
    assert dict(registry.items()) == {"standard": first, "other": other}
    del registry["other"]
    assert "other" not in registry and len(registry) == 1
    with pytest.raises(KeyError):
        registry["other"]


@pytest.mark.parametrize("name", ["maps", "templates", "migrations"])
def test_data_path_is_the_folder_importlib_resources_gives(name: str) -> None:
    """`data_path` finds a package on disk without importing importlib.resources: the same folder."""
    with as_file(files(f"judge.data.{name}")) as folder:
        assert data_path(name) == Path(folder)
