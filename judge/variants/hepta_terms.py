"""A CW Heptadiplomacy claim as the order reader reads it, once, when the line comes (`judge.variants.hepta_claims`
reads the words and judges the values): its head and its conditions as values, kept with the order and written to
the contract. Compiled with the engine (judge/speedups.py): an interpreted class cannot subclass the compiled
`Value` and `Terms` it is made of."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from judge.engine.orders import TERMS_KINDS, Order, Terms
from judge.value import Value


class Proviso(Value):
    """One condition of a claim as the reader read it: on a player's holdings or builds (`who` as written, `op`,
    `n`), on an order (`order`: the order read, None where it cannot be read; `text` as written, `wanted`
    "succeeds" or "fails"), or, `about` "unread", a condition that cannot be read (`text`)."""

    about: str
    """"holds", "builds", "order" or "unread" """
    text: str
    who: str
    op: str
    n: int
    order: Order | None
    wanted: str

    names = ("about", "text", "who", "op", "n", "order", "wanted")
    optional = frozenset(("who", "op", "n", "order", "wanted"))

    def __init__(
        self,
        about: str,
        text: str,
        who: str = "",
        op: str = "",
        n: int = 0,
        order: Order | None = None,
        wanted: str = "",
    ) -> None:
        object.__setattr__(self, "about", about)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "who", who)
        object.__setattr__(self, "op", op)
        object.__setattr__(self, "n", n)
        object.__setattr__(self, "order", order)
        object.__setattr__(self, "wanted", wanted)

    def json(self) -> dict[str, Any]:
        from judge.contract.orders import order_json  # the contract imports the variants: read when written

        out: dict[str, Any] = {"about": self.about, "text": self.text}
        if self.about in ("holds", "builds"):
            out.update(who=self.who, op=self.op, n=self.n)
        if self.about == "order":
            out["wanted"] = self.wanted
            if self.order is not None:
                out["order"] = order_json(self.order)
        return out

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Proviso:
        from judge.contract.orders import order_from_json

        order = raw.get("order")
        return cls(
            str(raw["about"]),
            str(raw["text"]),
            str(raw.get("who", "")),
            str(raw.get("op", "")),
            int(raw.get("n", 0)),
            order_from_json(order) if order else None,
            str(raw.get("wanted", "")),
        )


class ClaimTerms(Terms):
    """A claim line as the reader read it, once, when the order came (`read_terms`, the CLAIM verb's `read`): the
    words of its head in order, each classed (`("size", "2")`, `("partner", "France")`, `("unread", "xyz")`), and its
    conditions. Who the partners are is decided when the claim is judged (`claim_of`), against the game's players:
    the words are never read again."""

    kind = "claim"
    text: str
    head: tuple[tuple[str, str], ...]
    provisos: tuple[Proviso, ...]

    names = ("text", "head", "provisos")

    def __init__(self, text: str, head: tuple[tuple[str, str], ...], provisos: tuple[Proviso, ...]) -> None:
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "head", head)
        object.__setattr__(self, "provisos", provisos)

    def json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "text": self.text,
            "head": [list(item) for item in self.head],
            "provisos": [p.json() for p in self.provisos],
        }

    def places(self) -> tuple[str, ...]:
        return tuple(p.order.unit.location for p in self.provisos if p.order is not None and p.order.unit is not None)

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> ClaimTerms:
        return cls(
            str(raw["text"]),
            tuple((str(k), str(v)) for k, v in raw.get("head", ())),
            tuple(Proviso.from_json(p) for p in raw.get("provisos", ())),
        )


TERMS_KINDS[ClaimTerms.kind] = ClaimTerms.from_json
