"""Known forcing through ``WeakPareto.fit(..., forcing=, forcing_coef=)`` and ``wp discover``.

Data: exact per-mode solutions of ``D_t^alpha u = 0.3 R^1.5 u + 0.5 f`` with ``f = g(t) h(x)``
(:mod:`weakpareto.benchmarks.forced`: closed forms, exponential for alpha = 1 and Mittag-Leffler
for alpha = 0.8), clean, 101 x 64 on [0, 2] x [0, 2 pi).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from weakpareto.benchmarks.forced import forced_riesz_field
from weakpareto.cli import main
from weakpareto.errors import UserInputError
from weakpareto.user.estimator import WeakPareto

K, BETA, C = 0.3, 1.5, 0.5


def _model(alpha: float, **kw) -> WeakPareto:
    ar = (0.5, 1.5) if alpha == 1.0 else (0.5, 0.95)
    return WeakPareto(operator="riesz", alpha_range=ar, beta_range=(0.5, 2.0), **kw)


def _junk(u: np.ndarray, t: np.ndarray, x: np.ndarray) -> np.ndarray:
    """A field unrelated to the dynamics."""
    rng = np.random.default_rng(1)
    return np.cos(1.7 * t)[:, None] * np.sin(3 * x)[None] + 0.3 * rng.standard_normal(u.shape)


def _operator_terms(m: WeakPareto):
    return [t for t in m.equation_.terms if t.forcing is None]


def _forcing_terms(m: WeakPareto) -> dict[str, float]:
    return {t.forcing: t.coef for t in m.equation_.terms if t.forcing is not None}


@pytest.fixture(scope="module")
def unit():
    return forced_riesz_field(alpha=1.0)


@pytest.fixture(scope="module")
def unit_fit(unit):
    return _model(1.0).fit(unit.u, unit.t, unit.x, forcing={"source": unit.f})


@pytest.mark.parametrize("alpha", [1.0, 0.8])
def test_recovers_the_forced_equation(alpha, unit_fit):
    """Order within 0.02, K and the forcing's coefficient within 2 % (measured: alpha = 1:
    R^1.4999, K 0.3000, c 0.4997; alpha = 0.8: alpha 0.8005, R^1.4998, K 0.3006, c 0.5005)."""
    if alpha == 1.0:
        m = unit_fit
    else:
        d = forced_riesz_field(alpha=alpha)
        m = _model(alpha).fit(d.u, d.t, d.x, forcing={"source": d.f})
    assert m.mode_ == ("int" if alpha == 1.0 else "sub")
    assert abs(m.alpha_ - alpha) <= 0.02
    (op,) = _operator_terms(m)
    assert abs(op.order - BETA) <= 0.02 and abs(op.coef - K) <= 0.02 * K
    forcing = _forcing_terms(m)
    assert set(forcing) == {"source"} and abs(forcing["source"] - C) <= 0.02 * C
    assert m.equation_.text(sig_digits=4).endswith(f"+ {forcing['source']:.4f} source")
    assert list(m.forcing_) == ["", "source"]
    assert m.fit_error_ < 1e-2


def test_unrelated_forcing_is_dropped(unit):
    """A field the dynamics do not contain is not kept — on unforced data, and next to the
    forcing the data do need."""
    free = forced_riesz_field(alpha=1.0, c=0.0)
    junk = _junk(free.u, free.t, free.x)
    m = _model(1.0).fit(free.u, free.t, free.x, forcing={"junk": junk})
    assert _forcing_terms(m) == {}
    (op,) = _operator_terms(m)
    assert abs(op.order - BETA) <= 0.02 and abs(op.coef - K) <= 0.02 * K
    both = _model(1.0).fit(unit.u, unit.t, unit.x, forcing={"source": unit.f, "junk": junk})
    forcing = _forcing_terms(both)
    assert set(forcing) == {"source"} and abs(forcing["source"] - C) <= 0.02 * C
    assert both.result_.timings["forcing_dropped"] == 1.0


def test_given_coefficient_gives_the_same_other_terms(unit, unit_fit):
    """forcing_coef= fixes the term: printed with its given value, flagged fixed, and the
    operator term is the one of the estimated fit."""
    m = _model(1.0).fit(unit.u, unit.t, unit.x, forcing={"source": unit.f}, forcing_coef=C)
    (term,) = [t for t in m.equation_.terms if t.forcing is not None]
    assert term.fixed and term.coef == C  # exactly as given
    (op,) = _operator_terms(m)
    (ref,) = _operator_terms(unit_fit)
    assert abs(op.order - ref.order) <= 0.005 and abs(op.coef - ref.coef) <= 0.005 * ref.coef


def test_coefficients_in_the_units_of_the_data(unit):
    """u in other units (x 1e3) and t in other units (x 10): ``c' = s tau^-alpha c`` for the
    same f, ``K' = tau^-alpha K``; a given coefficient in those units gives the same fit."""
    s, tau = 1e3, 10.0
    m = _model(1.0).fit(s * unit.u, tau * unit.t, unit.x, forcing=unit.f)
    (op,) = _operator_terms(m)
    assert op.coef == pytest.approx(K / tau, rel=0.02)
    assert _forcing_terms(m)["f"] == pytest.approx(s * C / tau, rel=0.02)
    fixed = _model(1.0).fit(s * unit.u, tau * unit.t, unit.x, forcing=unit.f, forcing_coef=50.0)
    (op2,) = _operator_terms(fixed)
    assert op2.coef == pytest.approx(K / tau, rel=0.02)
    assert _forcing_terms(fixed)["f"] == 50.0


def test_json_round_trip(unit_fit):
    d = json.loads(unit_fit.to_json())
    (term,) = [t for t in d["terms"] if "forcing" in t]
    assert term["forcing"] == "source" and term["fixed"] is False
    assert "source" in d["equation"] and "source" in d["pareto_front"][0]["equation"]
    back = WeakPareto.from_json(unit_fit.to_json())
    assert back.equation_ == unit_fit.equation_
    assert list(back.forcing_) == list(unit_fit.forcing_)
    assert back.result_.final == unit_fit.result_.final


def test_repeated_endpoint_column_is_dropped_with_u(unit):
    """u given on [0, 2 pi] (repeated endpoint): the forcing of the same grid is accepted."""
    u = np.hstack([unit.u, unit.u[:, :1]])
    f = np.hstack([unit.f, unit.f[:, :1]])
    x = np.append(unit.x, 2 * np.pi)
    m = _model(1.0).fit(u, unit.t, x, period=2 * np.pi, forcing=f)
    assert _forcing_terms(m)["f"] == pytest.approx(C, rel=0.02)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        (dict(forcing="f[:, :-1]"), r"forcing 'f' has shape 101 x 63 but u has shape 101 x 64"),
        (dict(forcing="nan"), r"forcing 'f' has 1 non-finite values \(first at t=0, x=0\)"),
        (dict(forcing="zero"), "forcing 'f' is zero everywhere"),
        (dict(forcing={"2x": "f"}), "forcing name '2x' is not usable"),
        (dict(forcing={"u": "f"}), "forcing name 'u' is not usable"),
        (dict(forcing="complex"), "must hold real numbers"),
        (dict(forcing_coef=0.5), r"forcing_coef= needs forcing="),
        (dict(forcing="f", forcing_coef={"g": 1.0}), "forcing_coef names 'g', which is not"),
        (dict(forcing="f", forcing_coef=float("inf")), "must be a finite real number"),
        (dict(forcing={"a": "f", "b": "f"}, forcing_coef=1.0), "one number for 2 forcing"),
    ],
)
def test_refused_input(unit, kwargs, match):
    f = unit.f
    arrays = {
        "f": f,
        "f[:, :-1]": f[:, :-1],
        "nan": np.where(np.arange(f.size).reshape(f.shape) == 0, np.nan, f),
        "zero": np.zeros_like(f),
        "complex": f + 1j,
    }

    def resolve(v):
        if isinstance(v, dict):
            return {k: arrays[a] for k, a in v.items()}
        return arrays[v] if isinstance(v, str) else v

    args = {k: resolve(v) if k == "forcing" else v for k, v in kwargs.items()}
    with pytest.raises(UserInputError, match=match):
        _model(1.0).fit(unit.u, unit.t, unit.x, **args)


@pytest.mark.parametrize(
    ("params", "match"),
    [
        (dict(domain="bounded"), "known forcing .* is periodic only"),
        (dict(method="strong_pareto"), "method=strong_pareto has no forcing term"),
        (dict(uncertainty="bootstrap", n_boot=10), "does not resample known forcing"),
    ],
)
def test_refused_settings(unit, params, match):
    model = _model(1.0).set_params(**params)
    with pytest.raises(UserInputError, match=match):
        model.fit(unit.u, unit.t, unit.x, forcing=unit.f)


@pytest.mark.parametrize("alpha", [1.0, 0.8])
def test_forcing_beside_two_operator_families(alpha):
    """An advection beside the Riesz dispersion and a source (closed form of D_t^alpha u =
    -0.5 u_x + 0.3 R^1.5 u + 0.5 f): without ``operator`` (directional or Riesz per term) each
    operator term comes back in its family and the forcing's coefficient with them, orders
    within 0.01, coefficients within 1 % (measured: alpha = 1 exact to 4 digits; alpha = 0.8
    D_t^0.8000 u = -0.5000 D_x^0.9999 u + 0.2999 R^1.5001 u + 0.5000 source)."""
    d = forced_riesz_field(alpha=alpha, drift=0.5)
    m = WeakPareto(alpha_range=(0.6, 1.05), beta_range=(0.5, 2.0))
    m.fit(d.u, d.t, d.x, forcing={"source": d.f})
    assert m.grid_["operator"].startswith("auto")
    assert abs(m.alpha_ - alpha) <= 0.01
    families = {t.family_in(m.equation_.operator): t for t in _operator_terms(m)}
    assert families.keys() == {"directional", "riesz"}
    drift, dispersion = families["directional"], families["riesz"]
    assert abs(drift.order - 1.0) <= 0.01 and abs(dispersion.order - BETA) <= 0.01
    np.testing.assert_allclose([drift.coef, dispersion.coef], [-0.5, K], rtol=0.01)
    assert _forcing_terms(m) == pytest.approx({"source": C}, rel=0.01)


def test_refused_data_layouts(unit):
    u, t, x, f = unit.u, unit.t, unit.x, unit.f
    with pytest.raises(UserInputError, match="needs one experiment"):
        _model(1.0).fit([u, u[:60]], [t, t[:60]], x, forcing=f)
    y = np.linspace(0, 2 * np.pi, 40, endpoint=False)
    u3 = u[:, :, None] * (1.0 + 0.5 * np.sin(y))[None, None, :]
    with pytest.raises(UserInputError, match="1-D only"):
        WeakPareto(powers=(0,)).fit(u3, t, x, y, forcing=np.zeros_like(u3))


def test_discover_command(unit, tmp_path, capsys):
    """forcing= as a key of the data file and as a file; forcing_coef= as name:value."""
    data = tmp_path / "forced.npz"
    np.savez(data, u=unit.u, t=unit.t, x=unit.x, inj=unit.f)
    np.save(tmp_path / "source.npy", unit.f.T)  # stored nx x nt: transposed like u
    ranges = ["operator=riesz", "alpha_range=[0.5,1.5]", "beta_range=[0.5,2.0]"]
    out = tmp_path / "r.json"
    main(["discover", f"data={data}", *ranges, "forcing=inj", f"out={out}"])
    text = capsys.readouterr().out
    assert "forcing inj:" in text
    assert any(line.startswith("  u_t = ") and line.endswith(" inj") for line in text.splitlines())
    d = json.loads(out.read_text())
    (term,) = [t for t in d["terms"] if "forcing" in t]
    assert term["forcing"] == "inj" and term["coef"] == pytest.approx(C, rel=0.02)
    src = tmp_path / "source.npy"
    main(["discover", f"data={data}", *ranges, f"forcing={src}", "forcing_coef=[source:0.5]",
          f"out={out}"])  # fmt: skip
    assert "transposed" in capsys.readouterr().out
    d = json.loads(out.read_text())
    (term,) = [t for t in d["terms"] if "forcing" in t]
    assert term == {"power": 0, "order": 0.0, "coef": C, "forcing": "source", "fixed": True}


def test_discover_command_refusals(unit, tmp_path, capsys):
    data = tmp_path / "forced.npz"
    np.savez(data, u=unit.u, t=unit.t, x=unit.x)
    np.save(tmp_path / "bad.npy", unit.f[:, :-1])
    out = f"out={tmp_path / 'r.json'}"
    for args, message in [
        (["forcing=missing"], "has no array 'missing'"),
        ([f"forcing={tmp_path / 'bad.npy'}"], "forcing 'bad' has shape 101 x 63 but u has shape"),
        ([f"forcing={tmp_path / 'none.npy'}"], "does not exist"),
        (["forcing_coef=0.5"], "forcing_coef= needs forcing="),
    ]:
        with pytest.raises(SystemExit) as exc:
            main(["discover", f"data={data}", *args, out])
        assert exc.value.code == 2
        assert message in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["run", "benchmark=fade", "forcing=a.npz"])
    assert "the benchmarks of wp run have no forcing term" in capsys.readouterr().err


def test_weak_residual_map_says_why_it_is_missing(unit, unit_fit):
    from weakpareto.user.weak_residual import weak_residual_map

    field = unit_fit.validate(unit.u, unit.t, unit.x)
    assert "known forcing terms" in weak_residual_map(unit_fit, field)
