"""Stage 4: scoring: what conditions see of a hand (contexts), pattern tables and their
generated scorers, the scorer."""
