"""Shaped layouts, the decision stack and action spaces (mushgym.core)."""

import numpy as np
import pytest
from shaped_game import decl

from mushgym.core import ActionSpace, Layout


def test_fields_have_shapes_offsets_and_compiled_index_helpers():
    L = decl.L
    assert decl.TURN == 0 and decl.HAND == 1 and decl.CUBE == 16
    assert L.fields["hand"].shape == (3, 5) and L.fields["cube"].strides == (12, 4, 1)
    s = L.new_state()
    decl.fill_hand(s)
    views = L.arrays(s)
    assert views["hand"].shape == (3, 5)
    assert views["hand"][2, 3] == 23 and views["hand"][0, 4] == 4
    assert decl.hand_at(2, 3) == L.fields["hand"].index(2, 3) == 1 + 2 * 5 + 3
    assert decl.cube_at(1, 2, 3) == 16 + 12 + 8 + 3
    views["hand"][1, 1] = 99  # views write through to the state
    assert s[decl.hand_at(1, 1)] == 99
    assert L.view(s)["turn"] == 0 and len(L.view(s)["hand"]) == 15
    with pytest.raises(IndexError):
        L.fields["hand"].index(3, 0)


def test_table_lists_every_field_with_its_span():
    table = decl.L.table()
    assert "| 1..15 | `hand` | player=3 x kind=5 | cards per player and kind |" in table
    assert "`decisions`" in table and "`decisions_n`" in table


def test_decision_stack_push_pop_top_and_nesting():
    s = decl.L.new_state()
    assert decl.decision_depth(s) == 0 and decl.top_kind(s) == -1 and decl.top_player(s) == -1
    decl.push_decision(s, 7, 2, 11, 12)
    decl.push_decision(s, 8, 0)  # args default to 0
    assert decl.decision_depth(s) == 2 and decl.top_kind(s) == 8 and decl.top_player(s) == 0
    assert decl.top_arg(s, 0) == 0
    decl.set_top_arg(s, 1, 5)
    assert decl.decision_at(s, 1, 3) == 5 and decl.decision_at(s, 0, 2) == 11
    decl.set_decision_at(s, 0, 3, 13)  # an entry below the top
    assert decl.decision_at(s, 0, 3) == 13 and decl.top_arg(s, 1) == 5
    decl.set_decision_at(s, 0, 3, 12)
    decl.pop_decision(s)
    assert decl.top_kind(s) == 7 and decl.top_player(s) == 2 and decl.top_arg(s, 1) == 12
    assert s[decl.top_arg_slot(s, 1)] == 12 and decl.top_arg_slot(s, 0) + 1 == decl.top_arg_slot(s, 1)
    decl.push_decision(s, 1, 1)
    decl.push_decision(s, 1, 1)
    with pytest.raises(ValueError, match="overflow"):
        decl.push_decision(s, 1, 1)
    decl.clear_decisions(s)
    assert decl.decision_depth(s) == 0 and not s[decl.L.fields["decisions"].offset :].any()


def test_decision_stack_replace_and_read_the_top_entry_whole():
    s = decl.L.new_state()
    decl.push_decision(s, 7, 2, 11, 12)
    decl.push_decision(s, 8, 0, 3, 4)
    assert tuple(int(v) for v in decl.top_entry(s)) == (8, 0, 3, 4)
    decl.replace_top(s, 9, 1, 5)  # a compound action goes on as another kind
    assert tuple(int(v) for v in decl.top_entry(s)) == (9, 1, 5, 0)  # args not given are 0
    decl.set_top_kind(s, 6)
    assert decl.top_kind(s) == 6 and decl.top_player(s) == 1 and decl.top_arg(s, 0) == 5
    assert decl.decision_depth(s) == 2 and decl.decision_at(s, 0, 0) == 7 and decl.decision_at(s, 0, 3) == 12


def test_action_space_encode_decode_describe_and_compiled_helpers():
    A = decl.A
    assert A.size == 1 + 4 + 30
    a = A.encode("cook", 2, 1, 3)
    assert a == decl.cook_action(2, 1, 3) == 5 + 2 * 10 + 1 * 5 + 3
    assert A.decode(a) == ("cook", (2, 1, 3)) and decl.cook_args(a) == (2, 1, 3)
    assert decl.take_args(decl.take_action(3)) == 3
    assert A.describe(a) == "cook(kind=2, night=1, count=3)" and A.describe(0) == "pass"
    for x in range(A.size):
        name, args = A.decode(x)
        assert A.encode(name, *args) == x
        if name == "cook":
            assert decl.roundtrip(x) == x
    with pytest.raises(ValueError, match="valid actions"):
        A.encode("bake", 1)
    with pytest.raises(ValueError, match="outside 0..2"):
        A.encode("cook", 3, 0, 0)
    with pytest.raises(ValueError, match="outside"):
        A.decode(A.size)
    assert "| 5..34 | `cook` | kind=3 x night=2 x count=5 | cook |" in A.table()


def test_bad_declarations_are_refused():
    L = Layout()
    L.field("a", 3)
    with pytest.raises(ValueError, match="twice"):
        L.field("a", 2)
    with pytest.raises(ValueError, match="positive"):
        L.field("b", (2, 0))
    with pytest.raises(ValueError, match="dimension names"):
        L.field("c", (2, 2), dims=("x",))
    L.decision_stack(2, 1)
    with pytest.raises(ValueError, match="one decision stack"):
        L.decision_stack(2, 1)
    with pytest.raises(ValueError, match="distinct identifiers"):
        ActionSpace().add("x", (2, 2), dims=("a", "a"))


def test_generated_helpers_never_replace_a_module_function():
    L = Layout()
    L.field("hand", (2, 2))
    namespace = {"__name__": "fake.decl", "hand_at": lambda p, k: 0, "L": L}
    with pytest.raises(ValueError, match="would replace"):
        L.generated(namespace)


def test_a_stale_generated_module_is_an_error_naming_the_command(monkeypatch):
    """A declaration changed since its module was generated: importing it fails, naming the file and
    ``mushgym generate``, instead of compiling helpers with the old offsets."""
    import types

    L = Layout()
    L.field("hand", (2, 2))
    generated = types.ModuleType("fake.generated.decl")
    generated.SOURCE_DIGESTS = {"L": "0" * 16}
    monkeypatch.setitem(__import__("sys").modules, "fake.generated.decl", generated)
    with pytest.raises(ImportError, match=r"fake/generated/decl\.py is stale.*mushgym generate"):
        L.generated({"__name__": "fake.decl", "L": L})
    monkeypatch.delitem(__import__("sys").modules, "fake.generated.decl")
    with pytest.raises(ImportError, match="missing"):
        L.generated({"__name__": "fake.decl", "L": L})


def test_observation_bounds_from_the_layout():
    OL = Layout("observation")
    OL.field("hand", 3, low=0, high=10)
    OL.field("score", low=-5, high=50)
    low, high = OL.bounds()
    assert low.tolist() == [0, 0, 0, -5] and high.tolist() == [10, 10, 10, 50]
    OL.field("x")
    with pytest.raises(ValueError, match="no low/high"):
        OL.bounds()


def test_bounds_per_column_broadcast_to_the_field():
    OL = Layout("observation")
    OL.field("cards", (2, 3), low=0, high=np.array([1.0, 2.0, 3.0]))
    low, high = OL.bounds()
    assert low.tolist() == [0] * 6 and high.tolist() == [1, 2, 3, 1, 2, 3]
    OL.field("bad", 2, low=0, high=[1, 2, 3])
    with pytest.raises(ValueError, match="does not broadcast"):
        OL.bounds()


def test_env_docstrings_are_filled_from_the_declarations_and_refuse_a_gap():
    from mushgym.docsite import fill_env_docstring

    assert fill_env_docstring("n = @N@\n@TABLE@", {"N": 3, "TABLE": "| a |"}) == "n = 3\n| a |"
    with pytest.raises(ValueError, match=r"no value for \['@TABLE@'\]"):
        fill_env_docstring("n = @N@ @TABLE@", {"N": 3})
    with pytest.raises(ValueError, match=r"no placeholder for \['M'\]"):
        fill_env_docstring("n = @N@", {"N": 3, "M": 4})
