"""The player lab: what trains and measures the computer players, apart from what plays.

The board plays with :mod:`pawnlight.players`; this package only runs on a developer's machine:

* ``train_value`` trains the learned player's weights (``learned_value.json``),
* ``fit_win_chance`` fits the strong player's win-chance model (``win_chance.json``),
* ``headroom`` measures how far a player's choices are from the best found by many futures,
* ``story_calibration`` measures the error of the game's story (``pawnlight.players.story``),
* ``apologies_match`` plays the ``apologies`` package's RewardV1 as a yardstick
  (``pawnlight tournament --apologies``).

Each is a command: ``python -m pawnlight_lab.<name> --help`` (docs/players.md).  The lab imports
pawnlight; pawnlight never imports the lab (tests/test_layers.py).
"""
