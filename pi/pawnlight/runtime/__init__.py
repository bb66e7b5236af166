"""The running companion: :mod:`.config` (settings), :mod:`.owner` (the one thread that runs
the companion and carries out its effects) and :mod:`.daemon` (``pawnlight run``: opens the
devices, starts the owner and the web server)."""
