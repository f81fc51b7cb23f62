"""judge: a play-by-email Diplomacy judge for the multi-unit zine variants."""

__version__ = "0.1.0"
