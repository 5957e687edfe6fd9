"""The generic turn runtime: one deal of any compiled variant (see issue: runtime)."""
