"""The `judge adjudicate` JSON contract: one phase in, one phase out (docs/adjudicate.md)."""

from judge.contract.adjudicate import (
    CaseError,
    outcome_json,
    position_from_json,
    position_json,
    read_orders,
    run_case,
)

__all__ = ["CaseError", "outcome_json", "position_from_json", "position_json", "read_orders", "run_case"]
