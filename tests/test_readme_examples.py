"""The examples of README.md and docs/ run as tests, so that what they show is what the code prints.

Convention in the markdown files (README.md and every ``*.md`` under ``docs/``):

* An HTML comment on the line right before a fenced block marks it as an example::

      <!-- example: NAME [after=OTHER] [slow] -->
      ```bash
      wp generate benchmark=fade noise=0.05 out=f.npz
      wp discover data=f.npz ... out=r.json
      ```

  A ``bash`` block runs with ``bash -e`` (``wp`` and ``python`` are those of this interpreter's
  environment), a ``python`` block with this interpreter; each in a fresh temporary directory.
  ``after=OTHER`` (an example earlier in the same file) starts the directory as a copy of
  OTHER's directory after OTHER ran, so an example can use the files an earlier one wrote.
  ``slow`` marks the test ``slow`` (``make test-slow``): for examples that take more than ~20 s.
* ``<!-- output: NAME -->`` right before a later fenced block gives the example's expected
  standard output. It is compared line by line, exactly (trailing spaces and leading/trailing
  blank lines aside), except that

  - a line ``...`` stands for any number of lines (none included), and
  - a line ending in ``...`` stands for one line that starts with the text before the ``...``
    (for run times and hashes that change from run to run).

  An example without an output block only has to succeed (exit code 0).
* ``<!-- bad-input-table -->`` right before a markdown table whose rows are
  ``| `wp ...` | message |``: each command runs in-process in a directory holding a plain file
  ``FILE``, a directory ``DIR.npz`` and an empty directory ``runs``, and must exit with code 2
  and print exactly ``wp: error: <message>`` on stderr.

Examples run with one BLAS/OpenMP thread (deterministic and fast on a shared machine; the
printed results are the same with more).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MARKER = re.compile(r"^<!--\s*(example|output)\s*:\s*(\S+)(.*?)\s*-->\s*$")
TABLE_MARKER = re.compile(r"^<!--\s*bad-input-table\s*-->\s*$")
FENCE = re.compile(r"^(`{3,})\s*([\w+-]*)\s*$")
LANGUAGES = ("bash", "python")
TIMEOUT_S = 600


def documents() -> list[Path]:
    """README.md and the markdown files under docs/."""
    docs = sorted((ROOT / "docs").rglob("*.md")) if (ROOT / "docs").is_dir() else []
    return [ROOT / "README.md", *docs]


# -- parsing -----------------------------------------------------------------------------------
@dataclass
class Example:
    doc: Path
    name: str
    language: str
    code: str
    line: int  # 1-based line of the opening fence
    after: str | None = None
    slow: bool = False
    expected: list[str] | None = None

    @property
    def id(self) -> str:
        return f"{self.doc.relative_to(ROOT)}::{self.name}"


@dataclass
class BadInput:
    doc: Path
    command: str
    message: str
    line: int

    @property
    def id(self) -> str:
        return f"{self.doc.relative_to(ROOT)}:{self.line}"


@dataclass
class Parsed:
    examples: list[Example] = field(default_factory=list)
    bad_inputs: list[BadInput] = field(default_factory=list)


def _block(lines: list[str], i: int, where: str) -> tuple[str, list[str], int]:
    """The fenced block opening at ``lines[i]``: (language, content lines, index after it)."""
    m = FENCE.match(lines[i]) if i < len(lines) else None
    if m is None:
        raise ValueError(f"{where}: the marker must be followed by a fenced block")
    fence, language = m.group(1), m.group(2)
    for j in range(i + 1, len(lines)):
        if lines[j].strip() == fence:
            return language, lines[i + 1 : j], j + 1
    raise ValueError(f"{where}: unclosed fenced block")


def parse(doc: Path) -> Parsed:
    """The examples, their expected outputs and the bad-input rows of one markdown file."""
    lines = doc.read_text(encoding="utf-8").splitlines()
    out = Parsed()
    by_name: dict[str, Example] = {}
    i = 0
    while i < len(lines):
        where = f"{doc.relative_to(ROOT)}:{i + 1}"
        if TABLE_MARKER.match(lines[i]):
            i += 1
            rows = 0
            while i < len(lines) and lines[i].startswith("|"):
                cells = [c.strip() for c in re.split(r"(?<!\\)\|", lines[i])[1:-1]]
                cmd = re.fullmatch(r"`(wp .*)`", cells[0]) if len(cells) == 2 else None
                if cmd is not None:
                    msg = cells[1].replace("\\|", "|")
                    out.bad_inputs.append(BadInput(doc, cmd.group(1), msg, i + 1))
                    rows += 1
                i += 1
            if rows == 0:
                raise ValueError(f"{where}: bad-input-table marker without `wp ...` rows")
            continue
        m = MARKER.match(lines[i])
        if m is None:
            if re.match(r"^<!--\s*(example|output)\b", lines[i]):
                raise ValueError(f"{where}: malformed example marker {lines[i]!r}")
            i += 1
            continue
        kind, name, rest = m.group(1), m.group(2), m.group(3).split()
        language, content, nxt = _block(lines, i + 1, where)
        if kind == "example":
            if name in by_name:
                raise ValueError(f"{where}: example {name!r} defined twice")
            if language not in LANGUAGES:
                raise ValueError(
                    f"{where}: example {name!r} is a {language!r} block, not {LANGUAGES}"
                )
            ex = Example(doc, name, language, "\n".join(content) + "\n", i + 2)
            for opt in rest:
                if opt == "slow":
                    ex.slow = True
                elif opt.startswith("after="):
                    ex.after = opt.removeprefix("after=")
                    if ex.after not in by_name:
                        raise ValueError(f"{where}: after={ex.after} names no earlier example")
                else:
                    raise ValueError(f"{where}: unknown example option {opt!r}")
            by_name[name] = ex
            out.examples.append(ex)
        else:
            if rest:
                raise ValueError(f"{where}: an output marker takes no options")
            if name not in by_name:
                raise ValueError(f"{where}: output of {name!r}, which no earlier example defines")
            if by_name[name].expected is not None:
                raise ValueError(f"{where}: second output block for {name!r}")
            by_name[name].expected = content
        i = nxt
    return out


def _collect() -> Parsed:
    every = Parsed()
    for doc in documents():
        parsed = parse(doc)
        every.examples += parsed.examples
        every.bad_inputs += parsed.bad_inputs
    return every


COLLECTED = _collect()


# -- comparing ---------------------------------------------------------------------------------
def _trim(lines: list[str]) -> list[str]:
    lines = [line.rstrip() for line in lines]
    while lines and not lines[0]:
        lines.pop(0)
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _line_matches(pattern: str, line: str) -> bool:
    if pattern.endswith("...") and pattern.strip() != "...":
        return line.startswith(pattern[:-3])
    return line == pattern


def first_mismatch(expected: list[str], actual: list[str]) -> str | None:
    """None when ``actual`` matches ``expected`` (the convention above), else what went wrong."""
    exp, act = _trim(expected), _trim(actual)
    memo: dict[tuple[int, int], bool] = {}
    furthest = [0]

    def match(i: int, j: int) -> bool:
        if (i, j) in memo:
            return memo[(i, j)]
        furthest[0] = max(furthest[0], i)
        if i == len(exp):
            ok = j == len(act)
        elif exp[i].strip() == "...":
            ok = any(match(i + 1, k) for k in range(j, len(act) + 1))
        else:
            ok = j < len(act) and _line_matches(exp[i], act[j]) and match(i + 1, j + 1)
        memo[(i, j)] = ok
        return ok

    if match(0, 0):
        return None
    k = furthest[0]
    if k < len(exp):
        return f"no printed line matches expected line {k + 1}: {exp[k]!r}"
    return "the output has more lines than the expected block"


# -- running -----------------------------------------------------------------------------------
def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env[var] = "1"
    env["PYTHONUNBUFFERED"] = "1"
    env["MPLBACKEND"] = "Agg"
    return env


_RAN: dict[tuple[str, ...], tuple[Path, subprocess.CompletedProcess[str]]] = {}


def _before(ex: Example) -> Example | None:
    if ex.after is None:
        return None
    return next(e for e in COLLECTED.examples if e.doc == ex.doc and e.name == ex.after)


def _key(ex: Example) -> tuple[str, ...]:
    """What an example runs: its code after the code of its ``after=`` chain. Examples with the
    same key (the README and a guide showing the same commands) run once."""
    before = _before(ex)
    return (*(_key(before) if before is not None else ()), ex.language, ex.code)


def run_example(ex: Example, base: Path) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """Run ``ex`` (after its ``after=`` chain) once per session; its directory and result."""
    key = _key(ex)
    if key in _RAN:
        return _RAN[key]
    workdir = base / re.sub(r"\W", "_", ex.id)
    before = _before(ex)
    if before is not None:
        src, proc = run_example(before, base)
        if proc.returncode != 0:
            pytest.fail(f"{before.id}, which {ex.id} runs after, failed:\n{proc.stderr}")
        shutil.copytree(src, workdir)
    else:
        workdir.mkdir(parents=True)
    argv = (
        ["bash", "-e", "-c", ex.code] if ex.language == "bash" else [sys.executable, "-c", ex.code]
    )
    proc = subprocess.run(
        argv, cwd=workdir, env=_env(), capture_output=True, text=True, timeout=TIMEOUT_S
    )
    _RAN[key] = (workdir, proc)
    return workdir, proc


def _params() -> list[object]:
    marks = {True: [pytest.mark.slow], False: []}
    return [pytest.param(ex, id=ex.id, marks=marks[ex.slow]) for ex in COLLECTED.examples]


@pytest.mark.parametrize("ex", _params())
def test_example_prints_what_the_docs_show(ex: Example, tmp_path_factory):
    base = tmp_path_factory.getbasetemp() / "doc_examples"
    _, proc = run_example(ex, base)
    where = f"{ex.id} (line {ex.line})"
    assert proc.returncode == 0, f"{where} exited with {proc.returncode}:\n{proc.stderr}"
    if ex.expected is None:
        return
    problem = first_mismatch(ex.expected, proc.stdout.splitlines())
    assert problem is None, (
        f"{where}: {problem}\n--- shown in the docs ---\n"
        + "\n".join(ex.expected)
        + f"\n--- printed ---\n{proc.stdout}--- stderr ---\n{proc.stderr}"
    )


def bad_input_message(command: str, workdir: Path) -> tuple[object, str]:
    """Exit code and stderr of ``command`` (``wp ...``) run in-process in ``workdir``, which
    gets the plain file ``FILE`` and the directories ``DIR.npz`` and ``runs``."""
    from weakpareto.cli import main

    (workdir / "FILE").write_text("a file, not a directory\n")
    (workdir / "DIR.npz").mkdir()
    (workdir / "runs").mkdir()
    err, cwd = io.StringIO(), Path.cwd()
    os.chdir(workdir)
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            main(shlex.split(command)[1:])
        code: object = 0
    except SystemExit as exc:
        code = exc.code
    finally:
        os.chdir(cwd)
    return code, err.getvalue().strip()


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in COLLECTED.bad_inputs])
def test_bad_input_message_is_the_documented_one(case: BadInput, tmp_path):
    code, err = bad_input_message(case.command, tmp_path)
    assert code == 2, f"{case.command}: exit code {code}\n{err}"
    assert err == f"wp: error: {case.message}", (
        f"{case.command} ({case.id}) now prints\n{err}\n"
        "(if the new message is right: python tests/test_readme_examples.py bad-input-table)"
    )


# -- the convention itself ---------------------------------------------------------------------
def test_the_docs_have_examples_and_every_output_belongs_to_one():
    names = {ex.id for ex in COLLECTED.examples}
    assert {"README.md::run-fade", "README.md::discover-fade"} <= names
    assert len(COLLECTED.bad_inputs) >= 60
    checked = [ex for ex in COLLECTED.examples if ex.expected is not None]
    assert len(checked) >= len(COLLECTED.examples) // 2


def test_a_changed_digit_is_a_mismatch():
    shown = [
        "data=f.npz: u 150 x 120",
        "...",
        "selected (sub branch, E_fit 1.086e-02):",
        "  D_t^0.7997 u = -0.9829 D_x^0.9953 u",
        "  seed 0  : E_fit 0.0220; ...",
    ]
    printed = [
        "",
        "data=f.npz: u 150 x 120",
        "operator directional",
        "domain periodic",
        "selected (sub branch, E_fit 1.086e-02):",
        "  D_t^0.7997 u = -0.9829 D_x^0.9953 u",
        "  seed 0  : E_fit 0.0220; 1.1 s]",
    ]
    assert first_mismatch(shown, printed) is None
    assert first_mismatch(shown[2:], printed) is not None  # "..." is needed to skip lines
    wrong = [line.replace("0.9829", "0.9828") for line in shown]
    assert "0.9828" in str(first_mismatch(wrong, printed))
    assert first_mismatch(shown, [*printed, "extra line"]) is not None
    assert first_mismatch(["a ...", "b"], ["a 1", "b"]) is None
    assert first_mismatch(["a ...", "b"], ["x 1", "b"]) is not None


def test_markers_are_checked(tmp_path, monkeypatch):
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    doc = tmp_path / "x.md"
    doc.write_text("<!-- example: a after=b -->\n```bash\nwp --help\n```\n")
    with pytest.raises(ValueError, match="names no earlier example"):
        parse(doc)
    doc.write_text("<!-- output: a -->\n```\nx\n```\n")
    with pytest.raises(ValueError, match="no earlier example"):
        parse(doc)
    doc.write_text("<!-- example: a -->\ntext\n")
    with pytest.raises(ValueError, match="followed by a fenced block"):
        parse(doc)
    doc.write_text("<!-- example a -->\n```bash\nwp\n```\n")
    with pytest.raises(ValueError, match="malformed"):
        parse(doc)
    doc.write_text(
        "<!-- example: a slow -->\n```python\nprint(1)\n```\n<!-- output: a -->\n```\n1\n```\n"
    )
    (ex,) = parse(doc).examples
    assert ex.slow and ex.language == "python" and ex.expected == ["1"]


if __name__ == "__main__":
    # ``python tests/test_readme_examples.py bad-input-table``: the documented bad-input rows with
    # the messages the code prints now, to paste over the table after a deliberate change.
    import tempfile

    if sys.argv[1:] != ["bad-input-table"]:
        sys.exit("usage: python tests/test_readme_examples.py bad-input-table")
    for case in COLLECTED.bad_inputs:
        code, err = bad_input_message(case.command, Path(tempfile.mkdtemp()))
        message = err.removeprefix("wp: error: ").replace("|", "\\|")
        note = "" if code == 2 else f"  <-- exit code {code}"
        print(f"| `{case.command}` | {message} |{note}")
