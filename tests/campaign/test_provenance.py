"""Runs tied to code: the cache key holds the config hash and the code hash, and a change of
either makes `wp run` compute the seed again (and say so); older rows still read back."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
from pathlib import Path

import pyarrow.parquet as pq
from omegaconf import OmegaConf

from weakpareto._version import __version__
from weakpareto.campaign import cache, provenance, runner
from weakpareto.campaign import store as res
from weakpareto.campaign.compose import compose_config
from weakpareto.campaign.config import NON_IDENTITY_KEYS, config_hash
from weakpareto.campaign.store import load_fronts, load_runs

TINY = ["search.popsize=1", "search.maxiter=1", "search.c_max=2", "search.test_budget=smoke"]


def _copy_package(dst: Path) -> Path:
    """A copy of the package's source tree (what an edit in a checkout would change)."""
    src = provenance.PACKAGE_DIR
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "conf"))
    return dst


CONSTANT = re.compile(r"^([A-Z][A-Z0-9_]*(?:: [\w\[\], ]+)? = )(\d+(?:\.\d+)?)\b", re.M)


def _bump_a_method_constant(pkg: Path) -> tuple[Path, str, str]:
    """(module, its text, its text with the first numeric module constant of method/ + 1)."""
    for module in sorted((pkg / "method").glob("*.py")):
        text = module.read_text()
        m = CONSTANT.search(text)
        if m:
            bumped = str(float(m.group(2)) + 1) if "." in m.group(2) else str(int(m.group(2)) + 1)
            return module, text, text[: m.start(2)] + bumped + text[m.end(2) :]
    raise AssertionError("no numeric module constant in method/")


def test_code_hash_covers_the_method_not_the_reporting(tmp_path):
    pkg = _copy_package(tmp_path / "weakpareto")
    base = provenance.code_hash(pkg)
    assert re.fullmatch(r"[0-9a-f]{16}", base) and base == provenance.code_hash()
    rel = {p.relative_to(pkg).as_posix() for p in provenance.code_files(pkg)}
    assert {"method/discovery.py", "records.py", "campaign/compute.py"} <= rel
    assert "data/fade_tsfade_fft.dat" in rel  # the shipped field the benchmark reads
    assert not any(r.startswith(("reporting/", "user/", "cli")) for r in rel)
    assert "campaign/runner.py" not in rel and "campaign/store.py" not in rel

    # a method constant's default edited in Python: another code hash
    module, text, edited = _bump_a_method_constant(pkg)
    module.write_text(edited)
    assert provenance.code_hash(pkg) != base
    module.write_text(text)
    assert provenance.code_hash(pkg) == base

    # rewording a comment or a docstring of the method is not changing it
    discovery = pkg / "method" / "discovery.py"
    original = discovery.read_text()
    reworded = original.replace('"""', '"""Reworded. ', 1) + "\n# a new comment\n"
    discovery.write_text(reworded)
    assert provenance.code_hash(pkg) == base
    discovery.write_text(original.replace("\n\n\n", "\n\n\n# moved\n\n\n", 1))
    assert provenance.code_hash(pkg) == base
    discovery.write_text(original)
    assert {"fit/run.py", "fit/spec.py"} <= rel  # the fit layer computes results too

    # printing, storing or tabulating results is not computing them
    latex = pkg / "reporting" / "latex.py"
    latex.write_text(latex.read_text() + "\n# a comment\n")
    (pkg / "campaign" / "runner.py").write_text("# rewritten\n")
    assert provenance.code_hash(pkg) == base
    # nor is the table of accepted settings (what it lets through enters the config hash)
    assert "fit/rules.py" not in rel
    rules = pkg / "fit" / "rules.py"
    rules.write_text(rules.read_text() + "\nEXTRA_RANGE = (0.0, 1.0)\n")
    assert provenance.code_hash(pkg) == base
    assert provenance.code_hash(pkg, version="99.0") != base  # a new release: a new key


def test_code_hash_is_cached_under_the_raw_sources(tmp_path, monkeypatch):
    """Parsing the sources is the slow part of the code hash (~0.4 s of every `wp run`): the
    value is cached under the sha256 of the raw files, so a cached value is always the computed
    one — any edit (a comment too) is another key — and a broken cache is no cache."""
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "cache"))
    pkg = _copy_package(tmp_path / "weakpareto")
    computed = provenance._computed_hash(provenance.code_files(pkg), pkg, __version__)
    assert provenance.code_hash(pkg) == computed
    cache_file = tmp_path / "cache" / provenance.CACHE_FILE
    stored = json.loads(cache_file.read_text())
    assert list(stored.values()) == [computed]
    key = next(iter(stored))
    cache_file.write_text(json.dumps({key: "0" * 16}))  # a stored value is what is returned
    assert provenance.code_hash(pkg) == "0" * 16
    discovery = pkg / "method" / "discovery.py"
    discovery.write_text(discovery.read_text() + "\n# a new comment\n")  # another key
    assert provenance.code_hash(pkg) == computed
    assert len(json.loads(cache_file.read_text())) == 2
    cache_file.write_text("{not json")
    assert provenance.code_hash(pkg) == computed
    monkeypatch.setenv(cache.CACHE_ENV, "off")
    cache_file.unlink()
    assert provenance.code_hash(pkg) == computed and not cache_file.exists()


def test_config_hash_depends_on_every_composed_value():
    """Every value of the composed config (what conf/ defaults and overrides decide) is part of
    the key, except the bookkeeping keys (seeds, paths, labels, workers)."""
    cfg = compose_config(["benchmark=fade"])
    base = config_hash(cfg)
    data = OmegaConf.to_container(cfg, resolve=True)
    assert isinstance(data, dict)
    leaves: list[tuple[str, object]] = []

    def walk(node: object, prefix: str) -> None:
        if isinstance(node, dict) and node:
            for k, v in node.items():
                walk(v, f"{prefix}.{k}" if prefix else str(k))
        else:
            leaves.append((prefix, node))

    # n_boot/level count only with uncertainty on (checked below): runs without it keep the
    # config hash they had before the keys existed
    off = {"n_boot", "level"}
    walk({k: v for k, v in data.items() if k not in NON_IDENTITY_KEYS and k not in off}, "")
    assert len(leaves) > 60 and "search.popsize" in dict(leaves)
    for name, value in leaves:
        if isinstance(value, bool):
            new: object = not value
        elif isinstance(value, int | float):
            new = value + 1
        elif isinstance(value, str):
            new = value + "x"
        elif isinstance(value, list):
            new = [*value, 0]
        else:
            new = 1  # null or an empty group
        changed = OmegaConf.create(data)
        OmegaConf.update(changed, name, new, force_add=True)
        assert config_hash(changed) != base, name
    for name in ("seed", "seeds", "workers", "results_dir", "variant", "experiment"):
        changed = OmegaConf.create(data)
        OmegaConf.update(changed, name, 3 if name in ("seed", "seeds", "workers") else "z")
        assert config_hash(changed) == base, name
    for name in off:
        changed = OmegaConf.create(data)
        OmegaConf.update(changed, name, 0.5)
        assert config_hash(changed) == base, name  # uncertainty off: not read
        OmegaConf.update(changed, "uncertainty", "bootstrap")
        on = OmegaConf.create(data)
        OmegaConf.update(on, "uncertainty", "bootstrap")
        assert config_hash(changed) != config_hash(on) != base, name


def test_changed_conf_default_changes_the_key():
    """conf/search/paper.yaml's popsize default 7 -> 8 is what `search.popsize=8` composes."""
    a = runner.run_key(compose_config(["benchmark=fade"]), 0)
    b = runner.run_key(compose_config(["benchmark=fade", "search.popsize=8"]), 0)
    assert a.config_hash != b.config_hash and a.code_hash == b.code_hash
    assert res.run_path("r", a) != res.run_path("r", b)


def _cfg(root, *extra):
    return compose_config(
        ["benchmark=fade", "noise=0.05", "seeds=1", f"results_dir={root}", "progress=false"]
        + TINY
        + list(extra)
    )


def test_changed_code_recomputes_cached_runs_and_says_so(tmp_path, monkeypatch, capsys):
    root = tmp_path / "runs"
    (first,) = runner.run_config(_cfg(root))
    assert first.state == "computed" and not first.replaced
    row = load_runs(root).iloc[0]
    now = provenance.current()
    assert row["code_hash"] == now.code_hash and row["weakpareto_version"] == __version__
    assert row["git_commit"] == now.git_commit
    assert load_fronts(root)["code_hash"].eq(now.code_hash).all()
    (again,) = runner.run_config(_cfg(root))
    assert again.state == "cached"
    capsys.readouterr()

    # the method's source changed (another code hash): the stored result is not served
    edited = dataclasses.replace(now, code_hash="0" * 16)
    monkeypatch.setattr(runner, "current", lambda: edited)
    (redone,) = runner.run_config(_cfg(root))
    assert redone.state == "computed" and redone.replaced.startswith(f"code {now.code_hash[:8]}")
    err = capsys.readouterr().err
    assert "1 seed(s) computed again: the stored results were made by other code" in err
    assert "now code 00000000" in err
    runs = load_runs(root)
    assert sorted(runs["code_hash"]) == sorted([now.code_hash, "0" * 16])  # both kept
    assert res.select_cell(runs, "fade", 0.05)["code_hash"].tolist() == ["0" * 16]  # latest
    (cached,) = runner.run_config(_cfg(root))
    assert cached.state == "cached"
    (forced,) = runner.run_config(_cfg(root, "overwrite=true"))
    assert forced.state == "computed" and not forced.replaced


def test_rows_written_before_code_hashes_read_back_and_are_recomputed(tmp_path, capsys):
    """Schema 1 files (no code hash in the key or the name) load with null code_hash and
    git_commit, and a run of the current code computes the seed again."""
    root = tmp_path / "runs"
    runner.run_config(_cfg(root))
    (path,) = [p for p in root.rglob("*.parquet") if not p.name.endswith(res.FRONT_SUFFIX)]
    old = pq.read_table(path).drop_columns(["code_hash", "git_commit"])
    key = runner.run_key(_cfg(root), 0)
    legacy = res.run_path(root, dataclasses.replace(key, code_hash=""))
    pq.write_table(old, legacy)
    path.unlink()
    res.front_path(path).unlink()
    loaded = load_runs(root)
    assert len(loaded) == 1 and loaded["code_hash"].isna().all()
    assert loaded["git_commit"].isna().all()
    capsys.readouterr()
    (outcome,) = runner.run_config(_cfg(root))
    assert outcome.state == "computed"
    assert outcome.replaced.startswith("code unknown (stored before code hashes)")
    assert len(load_runs(root)) == 2


def test_git_commit_is_informational(tmp_path):
    assert provenance.git_commit(tmp_path) == ""  # not a checkout
    commit = provenance.git_commit()
    assert commit == "" or re.fullmatch(r"[0-9a-f]{40}(\+dirty)?", commit)
