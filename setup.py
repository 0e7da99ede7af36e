"""The optional compiled build of the engine.

``pip install .`` installs rummykit as pure Python (no compiler needed): everything is in
pyproject.toml. With ``RUMMYKIT_COMPILE=1`` the engine's hot modules (:data:`COMPILED`)
are compiled to C extensions with mypyc, which needs mypy and a C compiler in the
building environment::

    pip install mypy
    RUMMYKIT_COMPILE=1 pip install --no-build-isolation .

The compiled modules play exactly as the Python ones do: ``make test`` builds them into
``build/compiled`` and runs the engine's test suite against them too.
"""

from __future__ import annotations

import os

from setuptools import setup

COMPILED = [
    "src/rummykit/engine/melds.py",
    "src/rummykit/engine/actions.py",
    "src/rummykit/engine/deal.py",
    "src/rummykit/engine/finish.py",
    "src/rummykit/engine/knowledge.py",
    "src/rummykit/engine/legal.py",
    "src/rummykit/engine/sampling.py",
    "src/rummykit/engine/shuffle.py",
    "src/rummykit/bots/rollout.py",
    "src/rummykit/rl/actions.py",
    "src/rummykit/rl/observation.py",
]
"""The modules compiled: the move generator, the meld search, the shuffle, what a search
bot runs in its rollouts (the information sets and the rollout policy), and the RL
environment's action codes and observations. The rules, the cards, the dealing, the
match, the scoring, the other bot code, the RL environment's class (a PettingZoo class)
and the front ends stay Python (they run once a deal or once a decision, check loosely
typed input by hand, or derive from classes that are not compiled)."""

if os.environ.get("RUMMYKIT_COMPILE") == "1":
    from mypyc.build import mypycify

    setup(ext_modules=mypycify(COMPILED, opt_level="3"))
else:
    setup()
