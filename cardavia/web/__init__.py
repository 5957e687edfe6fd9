"""The site served by ``cardavia serve``: rules pages and tables to play at (see app.py)."""
