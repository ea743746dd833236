"""`python -m apps.screenshots --pictures-only`: every game's pictures drawn by its card's
writer into OUT/<game>/, nothing overwritten without --force."""

from __future__ import annotations

import pytest

from apps import screenshots
from asara_env.games import available_games, game_card


def test_the_pictures_of_every_game_with_a_writer_and_no_overwriting(tmp_path, monkeypatch, capsys):
    from asara_env.basari import docs

    monkeypatch.setattr(docs, "REPLAY_STEPS", 2)
    writers = [g for g in available_games() if game_card(g).pictures is not None]
    assert "basari" in writers
    screenshots.main(["--out", str(tmp_path), "--pictures-only"])
    saved = capsys.readouterr().out.splitlines()
    files = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file())
    assert files == ["basari/position.png", "basari/position.svg", "basari/replay.gif"]
    assert sorted(saved) == sorted(f"saved {tmp_path / f}" for f in files)
    with pytest.raises(SystemExit) as refused:
        screenshots.main(["--out", str(tmp_path), "--pictures-only"])
    err = capsys.readouterr().err
    assert refused.value.code == 2 and len(err.splitlines()) == 1
    assert f"{tmp_path / 'basari' / 'position.svg'} exists (--force overwrites it)" in err
    screenshots.main(["--out", str(tmp_path), "--pictures-only", "--force"])
    assert len(capsys.readouterr().out.splitlines()) == 3
