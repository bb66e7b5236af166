"""pawnlight: a smart companion for a physical Sorry! board."""

__version__ = "0.1.0"
