"""The notices the judge sends of its own accord, one template each (`judge.mail.compose.words`): the first line is
the subject (`Subject: ...`), then a blank line, then the text. A variant words one of its own by a file of the same
name in `templates/<variant>/notices/`."""
