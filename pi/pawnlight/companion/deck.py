"""The real pack's card tags: which UID is which card, enrolment, and what was played.

Every card carries an NFC tag. Once, the owner enrols the pack: pawnlight asks for the cards in a
fixed order (all the 1s, then the 2s, ...) and remembers each tag. During play a tag becomes a
card; an unknown tag is refused with a clear message, and a card already played since the last
shuffle is flagged (a card that went back into the pack by mistake, or a misread).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import PawnlightError
from ..i18n.marks import N_, NN_
from ..i18n.message import Message, Said, count_msg, msg, say
from ..rules.cards import CARDS, pack

#: A card drawn twice since the pack was shuffled (a warning for the players, their turn long).
DRAWN_BEFORE = N_(
    "This %(card)s was drawn before since the pack was shuffled: play on; if it went back "
    "into the pack by mistake, take it out after this turn"
)


#: The enrolment's prompts (the English "1 cards to go" is what the state has always said).
EVERY_CARD = N_("every card is enrolled")
SCAN_CARD = NN_(
    "scan a %(card)s card (%(nth)s of %(total)s), %(num)s cards to go",
    "scan a %(card)s card (%(nth)s of %(total)s), %(num)s cards to go",
)
ENROLLED_AS = N_("that tag is already enrolled as a %(card)s")
COMPLETE = N_("the enrolment is complete")
UNKNOWN_TAG = N_(
    "unknown card tag %(uid)s: enrol the pack first, or this tag is not one of its cards"
)


def card_name(card: str) -> Message | str:
    """A card's own name (``5``, ``sorry``) as a value: ``Sorry!`` in the other languages."""
    return Message(N_("sorry")) if card == "sorry" else card


class DeckError(PawnlightError, ValueError):
    """A tag that cannot be used; the message is for the players."""


def simulated_uids(extra_one: bool = True) -> dict[str, str]:
    """A ready-enrolled virtual pack for the simulator: UID ``0A<card><copy>00`` per card."""
    uids: dict[str, str] = {}
    copies: dict[str, int] = {}
    for card in pack(extra_one):
        copy = copies.get(card, 0)
        copies[card] = copy + 1
        uids[f"0A{CARDS.index(card):02X}{copy:02X}00"] = card
    return uids


@dataclass
class Enrolment:
    """Enrolling a pack: the cards still to scan, in the order they are asked for."""

    wanted: list[str]
    scanned: dict[str, str] = field(default_factory=dict)

    @classmethod
    def start(cls, extra_one: bool = False) -> Enrolment:
        return cls(sorted(pack(extra_one), key=CARDS.index))

    @property
    def next_card(self) -> str | None:
        return self.wanted[0] if self.wanted else None

    @property
    def done(self) -> bool:
        return not self.wanted

    def prompt(self) -> Said:
        """What to scan next (its message, so each phone says it in its language)."""
        card = self.next_card
        if card is None:
            return say(Message(EVERY_CARD))
        done = sum(1 for c in self.scanned.values() if c == card)
        total = done + self.wanted.count(card)
        return say(
            count_msg(SCAN_CARD, len(self.wanted), card=card_name(card), nth=done + 1, total=total)
        )

    def scan(self, uid: str) -> str:
        """Record the tag as the card asked for; returns that card."""
        if uid in self.scanned:
            raise DeckError(say(msg(ENROLLED_AS, card=card_name(self.scanned[uid]))))
        card = self.next_card
        if card is None:
            raise DeckError(say(Message(COMPLETE)))
        self.scanned[uid] = card
        self.wanted.pop(0)
        return card


class CardDeck:
    """The enrolled pack and what has been played since the last shuffle.  Values only: the
    file it is kept in belongs to the store (store.deck_file)."""

    def __init__(self, uids: dict[str, str] | None = None) -> None:
        self.uids: dict[str, str] = dict(uids or {})
        self.played: set[str] = set()
        self.last_uid: str | None = None

    @property
    def enrolled(self) -> bool:
        return bool(self.uids)

    def identify(self, uid: str) -> tuple[str, str | None]:
        """The card a tag is, and a warning for the players, or DeckError for an unknown tag."""
        uid = uid.upper()
        card = self.uids.get(uid)
        if card is None:
            raise DeckError(say(msg(UNKNOWN_TAG, uid=uid)))
        warning = None
        if uid in self.played:
            named: Message | str = Message(N_("sorry")) if card == "sorry" else card
            warning = say(msg(DRAWN_BEFORE, card=named))
        return card, warning

    def played_card(self, uid: str) -> None:
        """Mark a tag as played; once the whole pack is played it is reshuffled."""
        self.played.add(uid.upper())
        if self.played >= set(self.uids):
            self.played.clear()

    def shuffled(self) -> None:
        self.played.clear()
