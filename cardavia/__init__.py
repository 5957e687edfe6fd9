"""Cardavia: Chinese mahjong variants as data. The command line lives in :mod:`cardavia.cli`."""

__version__ = "0.1.0"
