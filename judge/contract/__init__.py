"""The `judge adjudicate` JSON contract: one phase in, one phase out (docs/adjudicate.md)."""

from judge.contract.adjudicate import CaseError, run_case

__all__ = ["CaseError", "run_case"]
