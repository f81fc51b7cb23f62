"""judge: a play-by-email Diplomacy judge for the multi-unit zine variants."""

from judge.dataclass_code import install_kept

__version__ = "0.1.0"

# before any of the judge's classes is defined: their dataclass methods' code, compiled at `make install`
install_kept()
