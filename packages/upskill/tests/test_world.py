"""`World`: the one place HOME and the XDG base directories are resolved."""

from __future__ import annotations

from pathlib import Path

import pytest

from upskill.world import World


def test_xdg_defaults_are_under_home() -> None:
    world = World(Path("/work"), Path("/h"), {})
    assert world.config_home == Path("/h/.config")
    assert world.cache_home == Path("/h/.cache")
    assert world.cache_dir == Path("/h/.cache/upskill")


def test_xdg_variables_win_and_empty_ones_do_not() -> None:
    env = {"XDG_CONFIG_HOME": "/cfg", "XDG_CACHE_HOME": "/cache"}
    world = World(Path("/work"), Path("/h"), env)
    assert (world.config_home, world.cache_dir) == (Path("/cfg"), Path("/cache/upskill"))
    empty = World(Path("/work"), Path("/h"), {"XDG_CONFIG_HOME": "", "XDG_CACHE_HOME": ""})
    assert (empty.config_home, empty.cache_home) == (Path("/h/.config"), Path("/h/.cache"))


def test_a_world_is_an_immutable_value() -> None:
    world = World(Path("/work"), Path("/h"), {"A": "1"})
    assert world == World(Path("/work"), Path("/h"), {"A": "1"})
    assert world != World(Path("/work"), Path("/h"), {"A": "2"})
    with pytest.raises(AttributeError):
        world.cwd = Path("/elsewhere")  # type: ignore[misc]
    assert repr(world) == f"World(cwd={Path('/work')!r}, home={Path('/h')!r}, env=<1 variables>)"


def test_current_reads_home_then_userprofile(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", "/home/a")
    monkeypatch.setenv("USERPROFILE", "C:/Users/a")
    world = World.current()
    assert (world.cwd, world.home) == (tmp_path, Path("/home/a"))
    monkeypatch.setenv("HOME", "")
    assert World.current().home == Path("C:/Users/a")


def test_everything_that_needs_a_user_directory_asks_the_world(tmp_path: Path) -> None:
    from upskill.clientconf.places import places_for
    from upskill.state.config import global_config_path, load_config_paths

    world = World(tmp_path / "p", tmp_path / "h", {"XDG_CONFIG_HOME": str(tmp_path / "x")})
    assert global_config_path(world) == tmp_path / "x/upskill/config.yaml"
    assert load_config_paths(world) == (
        tmp_path / "x/upskill/config.yaml",
        tmp_path / "p/.upskill/config.yaml",
    )
    places = places_for(tmp_path / "root", world)
    assert (places.root, places.home, places.config_home) == (
        tmp_path / "root",
        tmp_path / "h",
        tmp_path / "x",
    )
