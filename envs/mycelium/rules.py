"""Mycelium's kernel module (the Game's ``kernels``): one int64 state array, the decision
stack, numba-compiled rules. It defines nothing itself: it gathers the kernels of the modules
below (every name they define, as before they were split) and compiles the engine's batch
loops over them (:func:`mushgym.core.generated_loops`, written to generated/rules_loops.py).

The turn player acts when the decision stack is empty (phase: Explore placement, Action
menu, Place, Draw-phase discard). Everything else is a stack entry ``(kind, player, args)``:
sub-decisions (paying, placing Paths, the face-down combat cards, giving cards to an Inky
Cap, Russula's placements, Magic Mushling's order, the choice of an Exchange's
cards) and reaction windows (Fly Agaric after any ability, Penny Bun / Inky Cap after a Path, reinforcements and
combat tokens after a
reveal, Bird's Nest in a Nutrient Card Phase, the revealed cards' reactions). Two entry
kinds are not decisions but bookkeeping that :func:`.decisions.advance` processes as soon as
they reach the top: ``D_RESOLVE`` (an ability in flight, with its arguments and a cancelled
flag: the Fly Agaric window sits above it) and ``D_COMBAT`` (the combat in progress; its
stage is in the ``combat`` fields).

The modules, lowest first (each imports only from those above it in this list):

================== ===========================================================================
``layout``         sizes, enums, the config / state / observation layouts, the decision kinds
                   (:data:`.layout.K`) and the action space
``graph``          a breadth-first search over a table of neighbours
``cards``          hands and knowledge, decks and discard piles, drawing, the supplies
``board``          Paths, building and removing them, the bonds to a Colony
``emsporium``      variant: the Emsporium's shop, Buy and items
``exchange``       the Exchange by Mushling Card Type and its choice of cards
``team``           variant: the Team rules' Trade, seats and rewards
``gathering``      the gatherers' gathering, the win at 10, the Team rules' choices
``tavern``         variant: the Hero Tavern and Legends
``abilities``      abilities in flight and Fly Agaric's cancel; the use prompt
``combat``         a combat, stage by stage, and its decisions
``building``       the Build action, placing Paths, Penny Bun / Inky Cap
``effects``        what each ability does; Russula's and Magic Mushling's choices
``turn``           set-up, phases, Bird's Nest, the end of the game and the returns
``menu``           the turn player's own decisions (placing, discarding, the Action menu)
``decisions``      the generated dispatch over decision kinds, legal_mask, step, advance
``observation``    what a player sees
``validate_codes`` / ``validate_stack`` / ``validate``   the state check
================== ===========================================================================

See RULES.md for the rules as implemented (with the function that implements each) and
every choice made where the rulebook is silent.
"""

from mushgym.core import generated_loops, sample_masked  # noqa: F401  (sample_masked: the engine's uniform legal draw, re-exported)

from .abilities import *  # noqa: F401,F403
from .board import *  # noqa: F401,F403
from .building import *  # noqa: F401,F403
from .cards import *  # noqa: F401,F403
from .combat import *  # noqa: F401,F403
from .decisions import *  # noqa: F401,F403
from .effects import *  # noqa: F401,F403
from .emsporium import *  # noqa: F401,F403
from .exchange import *  # noqa: F401,F403
from .gathering import *  # noqa: F401,F403
from .layout import *  # noqa: F401,F403
from .menu import *  # noqa: F401,F403
from .observation import *  # noqa: F401,F403
from .observation_layout import *  # noqa: F401,F403
from .tavern import *  # noqa: F401,F403
from .team import *  # noqa: F401,F403
from .turn import *  # noqa: F401,F403
from .validate import validate  # noqa: F401  (the state check run by mushgym.Game.validate)

generated_loops(globals())
