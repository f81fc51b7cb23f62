"""The command language by mail: one small class per command, found through a registry (`HELP` lists it).
`answer_mail` is the entry point the mail processor is handed (`judge.mail.answer.Handler`)."""

from judge.commands.base import REGISTRY, Command, CommandError, MailContext, Role
from judge.commands.interpreter import answer_mail, interpret

# the modules register their commands when imported
from judge.commands import account, ending, info, joining, master, player  # noqa: F401  isort: skip

__all__ = ["REGISTRY", "Command", "CommandError", "MailContext", "Role", "answer_mail", "interpret"]
