"""The command language by mail: one small class per command, found through a registry (`HELP` lists it)."""

from judge.commands.base import REGISTRY, Command, CommandError, MailContext
from judge.commands.interpreter import interpret

# the modules register their commands when imported
from judge.commands import account, info, master, player  # noqa: F401  isort: skip

__all__ = ["REGISTRY", "Command", "CommandError", "MailContext", "interpret"]
