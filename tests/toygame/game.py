"""The toy game's Game class and AEC env (registered only inside the tests)."""

import numpy as np

from mushgym.aec import make_env_classes
from mushgym.game import Game, GameSpec

from . import rules


class ToyGame(Game):
    env_id = "toyrace_v0"
    kernels = rules
    option_choices = {"num_players": (2,), "leak": (False, True)}
    default_options = {"num_players": 2, "leak": False}

    def build_config(self, options):
        return np.array([int(options["leak"])], dtype=np.int64)

    def make_spec(self, options):
        return GameSpec(
            self.env_id,
            2,
            rules.NUM_ACTIONS,
            (rules.OBS_SIZE,),
            rules.STATE_SIZE,
            max_game_length=rules.TARGET,
            reward_range=(-1.0, 1.0),
            perfect_information=False,
            chance=True,
            zero_sum=True,
            options=dict(options),
        )

    def observation_bounds(self):
        return np.zeros(4, np.float32), np.array([9, 11, 1, 9], np.float32)

    def action_to_string(self, state, action):
        return f"add {int(action) + 1}"

    def state_to_string(self, state):
        v = rules.L.view(state)
        return f"counter={v['counter']} player={v['player']} hidden={v['hidden']} done={v['done']}"

    def check_invariants(self, state):
        assert 0 <= state[rules.COUNTER] <= rules.TARGET + 1, "counter out of range"
        assert sorted(state[rules.DECK : rules.DECK + 10].tolist()) == list(range(10)), "deck is not 0..9"

    def perturb_hidden(self, state, player, rng):
        new = state.copy()
        other = 1 - player
        candidates = [c for c in range(10) if c != state[rules.HIDDEN + player]]
        new[rules.HIDDEN + other] = candidates[rng.integers(len(candidates))]
        return new


raw_env, env = make_env_classes(ToyGame, module_name=__name__)
Game = ToyGame
