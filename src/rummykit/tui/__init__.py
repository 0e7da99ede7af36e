"""The terminal game of ``rummykit play``: a Textual app (the ``tui`` extra).

It shows what seat 0 may see and nothing else: it is given
:meth:`rummykit.session.LocalGame.view` (seat 0's view) and never a bot's hand. The keys
are the web table's: ←/→ move over the hand, space selects, shift+←/→ moves a card in
your own order, ``s`` ``p`` ``m`` ``d`` draw, meld and discard, ``1``-``9`` lay off on that
meld, ``h`` a hint, ``u`` undo, ``t`` the score sheet; ``:`` takes any action in the
record notation, ``?`` lists the legal actions.
"""

from __future__ import annotations

from rummykit.tui.app import RummyApp, run_app

__all__ = ["RummyApp", "run_app"]
