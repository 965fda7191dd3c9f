"""The package version (a base module, so any layer can stamp results with it)."""

__version__ = "0.1.0"
