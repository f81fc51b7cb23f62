"""Mail: reading what players and GMs send to the judge."""
