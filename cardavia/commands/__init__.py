"""Subcommands of ``cardavia``; see :mod:`cardavia.cli`."""
