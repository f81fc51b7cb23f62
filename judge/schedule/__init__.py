"""Deadlines: when each phase is due, what falls due when, and the keeper that acts on it."""
