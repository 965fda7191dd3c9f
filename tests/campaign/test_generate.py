"""`wp generate` (campaign.generate): checked inputs, the field and metadata, atomic output."""

from __future__ import annotations

import json
import os
import stat

import numpy as np
import pytest

from weakpareto.benchmarks.generators import generate
from weakpareto.benchmarks.noise import add_noise
from weakpareto.campaign import generate as gen
from weakpareto.campaign.generate import generate_command, writable_path
from weakpareto.errors import UserInputError


def test_generate_command_writes_the_noisy_field_and_truth(tmp_path, capsys):
    out = tmp_path / "rd.npz"
    path = generate_command(["benchmark=rd_space", "noise=0.05", "seed=4", f"out={out}"])
    assert path == out
    d = np.load(out)
    field = generate("rd_space", 4)
    np.testing.assert_array_equal(d["u"], add_noise(field.u, "multiplicative", 0.05, 4))
    np.testing.assert_array_equal(d["t"], field.t)
    np.testing.assert_array_equal(d["x"], field.x)
    meta = json.loads(str(d["meta"]))
    assert (meta["benchmark"], meta["noise"], meta["seed"]) == ("rd_space", 0.05, 4)
    assert meta["noise_law"] == "multiplicative" and meta["truth"]["terms"]
    printed = capsys.readouterr().out
    assert "rd_space" in printed and "5 % multiplicative noise" in printed
    assert printed.rstrip().endswith(f"wrote {out}")
    mode = stat.S_IMODE(os.stat(out).st_mode)
    umask = os.umask(0)
    os.umask(umask)
    assert mode == 0o666 & ~umask  # the atomic helper's permissions, not mkstemp's 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rd.npz"]


def test_noise_free_field_is_the_clean_field(tmp_path):
    out = tmp_path / "clean.npz"
    generate_command(["benchmark=rd_space", f"out={out}"])
    np.testing.assert_array_equal(np.load(out)["u"], generate("rd_space", 0).u)


@pytest.mark.parametrize(
    "overrides, needle",
    [
        ([], "out= is required"),
        (["out=f.txt"], "must end in .npz"),
        (["out=missing/f.npz"], "does not exist"),
        (["out=sub"], "must end in .npz"),
        (["out=f.npz", "seed=-1"], "seed"),
        (["out=f.npz", "noise=-0.1"], "noise"),
        (["out=f.npz", "benchmark=nope"], "valid benchmark options"),
    ],
)
def test_bad_input_is_rejected_before_generating(overrides, needle, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def no_generate(*a, **k):
        raise AssertionError("bad input must be rejected before generating")

    monkeypatch.setattr(gen, "generate", no_generate)
    with pytest.raises(UserInputError, match=needle):
        generate_command(["benchmark=rd_space", *overrides])
    assert list(tmp_path.iterdir()) == []


def test_writable_path_rejects_a_directory(tmp_path):
    (tmp_path / "d.npz").mkdir()
    with pytest.raises(UserInputError, match="is a directory"):
        writable_path(tmp_path / "d.npz", ".npz")
    assert writable_path(tmp_path / "ok.npz", ".npz") == tmp_path / "ok.npz"


def test_failed_write_leaves_the_old_file_and_no_temp_file(tmp_path, monkeypatch):
    out = tmp_path / "f.npz"
    out.write_bytes(b"old")

    def broken_savez(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(gen.np, "savez", broken_savez)
    with pytest.raises(OSError, match="disk full"):
        generate_command(["benchmark=rd_space", f"out={out}"])
    assert out.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["f.npz"]
