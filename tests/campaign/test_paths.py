"""Output paths are probed before any work: a file, an impossible or a read-only directory is one
line and exit code 2 for `wp run`, `wp report`, `wp generate` and `wp bench`, and nothing is left.
"""

from __future__ import annotations

import pytest

from weakpareto.campaign.paths import readable_dir, writable_dir, writable_file
from weakpareto.cli import main
from weakpareto.errors import UserInputError


def test_writable_dir_creates_and_leaves_no_probe(tmp_path):
    d = writable_dir(tmp_path / "a" / "b", "results_dir")
    assert d.is_dir() and list(d.iterdir()) == []


@pytest.mark.parametrize(
    "make, needle",
    [
        (lambda t: (t / "f").write_text("x") and t / "f", "is a file"),
        (lambda t: (t / "f").write_text("x") and t / "f" / "sub", "cannot create"),
        (lambda t: "/proc/nope", "cannot create"),
        (lambda t: "", "is empty"),
    ],
)
def test_unusable_directories(tmp_path, make, needle):
    with pytest.raises(UserInputError, match=needle):
        writable_dir(make(tmp_path), "results_dir")


def test_read_only_directory(read_only_dir):
    with pytest.raises(UserInputError, match="not writable"):
        writable_dir(read_only_dir, "out_dir")
    with pytest.raises(UserInputError, match="cannot create"):
        writable_dir(read_only_dir / "sub", "out_dir")
    with pytest.raises(UserInputError, match="not writable"):
        writable_file(read_only_dir / "f.npz", ".npz")


def test_readable_dir(tmp_path):
    assert readable_dir(tmp_path, "results_dir") == tmp_path
    with pytest.raises(UserInputError, match="does not exist"):
        readable_dir(tmp_path / "nope", "results_dir")


def _exit2(args, capsys) -> str:
    with pytest.raises(SystemExit) as exc:
        main(args)
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("wp: error:") and "\n" not in err
    return err


FAST = ["search.maxiter=1", "search.popsize=1", "seeds=1", "progress=false"]


def test_every_command_checks_its_output_dir_first(read_only_dir, tmp_path, capsys, monkeypatch):
    """Nothing is computed: the run, report and bench bodies are never reached."""
    from weakpareto.campaign import bench, runner

    def never(*a, **k):
        raise AssertionError("computed before checking the output path")

    monkeypatch.setattr(runner, "run_config", never)
    monkeypatch.setattr(bench, "run_bench", never)
    ro = str(read_only_dir)
    assert "not writable" in _exit2(["run", f"results_dir={ro}", *FAST], capsys)
    assert "not writable" in _exit2(["run", "-m", "noise=0,0.1", f"results_dir={ro}"], capsys)
    assert "cannot create" in _exit2(["run", f"results_dir={ro}/new", *FAST], capsys)
    (tmp_path / "runs").mkdir()
    report = ["report", f"results_dir={tmp_path / 'runs'}", f"out_dir={ro}"]
    assert "not writable" in _exit2(report, capsys)
    assert "not writable" in _exit2(["generate", f"out={ro}/f.npz"], capsys)
    assert "not writable" in _exit2(["bench", "benchmarks=fade", f"out_dir={ro}"], capsys)
    assert list(read_only_dir.iterdir()) == []
