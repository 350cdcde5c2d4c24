"""The one exception the package raises for bad modules and bad calls."""


class MlaError(Exception):
    """A module that cannot be used or a call that cannot be made."""
