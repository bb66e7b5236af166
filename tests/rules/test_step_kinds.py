"""Step kinds are an enum with the numbers and words they had as bare constants."""

from pawnlight.rules.moves import StepKind

from .helpers import options, pos


def test_the_kinds_keep_their_numbers_and_words():
    assert [int(kind) for kind in StepKind] == [0, 1, 2, 3, 4]
    assert [kind.word for kind in StepKind] == ["forward", "backward", "start", "sorry", "switch"]


def test_every_generated_step_names_its_kind_with_the_enum():
    position = pos(red="T10 T20 start start", blue="T30 start start start")
    moves = [m for card in ("1", "4", "11", "sorry") for m in options(position, "red", card).moves]
    kinds = {step.kind for move in moves for step in move.steps}
    assert all(type(kind) is StepKind for kind in kinds)
    assert kinds == set(StepKind)
