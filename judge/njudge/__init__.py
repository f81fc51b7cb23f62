"""njudge's results mails read: a reader that turns a game's njudge-layout results mails back into its positions
(`reader`), and the import of a game from them (`importer`, the `judge import` command). The layout itself is
rendered by `judge.render.njudge` from the templates in `templates/njudge/`, with the names njudge gives places
and powers (`judge.render.njudge_names`), which the reader reads back."""
