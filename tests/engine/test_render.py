"""Pictures of every game: the drawing module, rgb_array / svg render modes, and that pictures follow the state."""

import xml.etree.ElementTree as ET

import numpy as np
import pytest

import mushgym
from mushgym.render import Scene, draw_state, has_picture

PICTURED = [e for e in mushgym.list_envs() if has_picture(mushgym.game(e))]


def test_scene_svg_and_rgb_agree_on_size_and_content():
    s = Scene(120, 80, background="#ffffff")
    blank = s.to_rgb()
    assert blank.shape == (80, 120, 3) and blank.dtype == np.uint8
    assert (blank == 255).all()
    s.rect(10, 10, 40, 30, fill="#ff0000", radius=4).circle(90, 40, 15, fill="#0000ff")
    s.polygon([(60, 70), (70, 50), (80, 70)], fill="#00ff00").line(0, 79, 119, 79, stroke="#000000", width=2)
    s.text(60, 10, "Porcini & <Morel>", size=9, anchor="middle")
    rgb = s.to_rgb()
    assert tuple(rgb[25, 30]) == (255, 0, 0)  # inside the red rectangle
    assert tuple(rgb[40, 90]) == (0, 0, 255)  # centre of the blue circle
    root = ET.fromstring(s.to_svg())  # well-formed, text escaped
    assert root.get("width") == "120" and root.get("height") == "80"
    tags = [el.tag.split("}")[1] for el in root]
    assert tags.count("rect") == 2 and {"circle", "polygon", "line", "text"} <= set(tags)


def test_scene_rejects_bad_input():
    with pytest.raises(ValueError, match="positive size"):
        Scene(0, 10)
    with pytest.raises(ValueError, match="anchor"):
        Scene(10, 10).text(0, 0, "x", anchor="left")
    with pytest.raises(ValueError, match="3 points"):
        Scene(10, 10).polygon([(0, 0), (1, 1)])


def test_both_shipped_games_have_pictures():
    assert {"fungi_v0", "mycology_v1"} <= set(PICTURED)


@pytest.mark.parametrize("env_id", PICTURED)
def test_rgb_array_is_a_video_frame_and_follows_the_state(env_id):
    env = mushgym.make(env_id, render_mode="rgb_array")
    env.reset(seed=1)
    first = env.render()
    assert isinstance(first, np.ndarray) and first.dtype == np.uint8 and first.ndim == 3 and first.shape[2] == 3
    frames = [first]
    for _ in range(6):
        agent = env.agent_selection
        obs = env.observe(agent)
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        frames.append(env.render())
    assert all(f.shape == first.shape for f in frames), "frames of one game keep one size (video recorders need it)"
    assert any(not np.array_equal(first, f) for f in frames[1:]), "the picture did not change as the game moved"


@pytest.mark.parametrize("env_id", PICTURED)
def test_svg_mode_and_save_svg(env_id, tmp_path):
    env = mushgym.make_raw(env_id, render_mode="svg")
    env.reset(seed=2)
    svg = env.render()
    assert ET.fromstring(svg).tag.endswith("svg")
    path = env.save_svg(tmp_path / "table.svg")
    assert path.read_text() == svg
    env.picture().save(tmp_path / "table.png")
    assert (tmp_path / "table.png").stat().st_size > 1000


def test_fungi_picture_hides_the_opponents_hand():
    """Seen from seat 0, changing what seat 0 cannot see leaves the picture unchanged; face up, it changes."""
    game = mushgym.game("fungi_v0")
    state = game.new_state(5)
    rng = np.random.default_rng(0)
    for _ in range(50):
        other = game.perturb_hidden(state, 0, rng)
        if (
            not np.array_equal(other, state)
            and draw_state(game, other, None).to_svg() != draw_state(game, state, None).to_svg()
        ):
            break
    else:
        pytest.fail("perturb_hidden never changed a face-up picture")
    assert draw_state(game, other, 0).to_svg() == draw_state(game, state, 0).to_svg()


def test_human_mode_without_display_writes_a_png(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setenv("MUSHGYM_RENDER_PATH", str(tmp_path / "live.png"))
    env = mushgym.make("fungi_v0", render_mode="human")
    env.reset(seed=0)
    assert env.render() is None
    assert (tmp_path / "live.png").exists()
    assert "live.png" in capsys.readouterr().out
    env.close()


def test_bad_viewer_is_a_clear_error():
    game = mushgym.game("fungi_v0")
    with pytest.raises(ValueError, match="no player 7"):
        draw_state(game, game.new_state(0), 7)


def test_single_agent_env_renders_the_learners_view():
    from mushgym.wrappers import SingleAgentEnv

    env = SingleAgentEnv("fungi_v0", render_mode="rgb_array", seat=1)
    env.reset(seed=0)
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    game = env.game
    assert np.array_equal(frame, draw_state(game, env.state, 1).to_rgb())
