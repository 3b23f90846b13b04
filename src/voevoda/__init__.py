"""voevoda: a referee engine for turn-based strategy games played by post or at a table."""

__version__ = "0.1.0"
