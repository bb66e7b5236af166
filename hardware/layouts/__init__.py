"""Board layout files (TOML), shipped as package data of ``pawnlight.layouts``.

Read them with :func:`pawnlight.board.layout.load_layout` or ``Layout.named("presence")``.
"""
