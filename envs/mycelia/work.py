"""The work area: the scratch ``work`` array every kernel gets (nothing in it survives a call;
mushgym/core/README.md, section 4). One slot per tile in each table but the mask."""

from .actions import NUM_ACTIONS
from .layout import NT_MAX

W_QUEUE = 0  # breadth-first queue (mushgym.core.bfs_walk_rule) / spores taken by the Automata
W_DIST = NT_MAX  # distances (cone, board)
W_AUX = 2 * NT_MAX  # a second distance table / ring scores
W_TRIED = 3 * NT_MAX  # networks tried by the Automata
LABEL = 4 * NT_MAX  # network label of each tile
W_MASK = 5 * NT_MAX  # a legal-action mask for forced decisions (NUM_ACTIONS slots)
W_QUEUE_AUX = W_MASK + NUM_ACTIONS  # a second queue, for a walk that keeps W_QUEUE intact
WORK_SIZE = W_QUEUE_AUX + NT_MAX
